import { z } from 'zod';

import { ZUuidSchema, dataEnvelope } from './common.ts';
import { MESSAGES } from './messages.ts';

// Exports (spec §3, §7): CSV files produced on request, stored with an id, downloaded as base64.

/**
 * statistics: one row per enrolled learner of a course (the "delivery statistics");
 * not_enrolled_learners: learners of the course's lists who are not enrolled;
 * course: the statistics CSV requested from the classroom's course export.
 */
export const EXPORT_TYPES = ['statistics', 'not_enrolled_learners', 'course'] as const;
export type TExportType = (typeof EXPORT_TYPES)[number];

export const EXPORT_TYPE_DISPLAY_NAMES: Record<TExportType, string> = {
  statistics: MESSAGES.exportTypeStatistics,
  not_enrolled_learners: MESSAGES.exportTypeNotEnrolledLearners,
  course: MESSAGES.exportTypeCourse,
};

export const EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type TExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** The web app's download page for an export; the e-mail links to it. */
export const exportDownloadPath = (exportId: string): string => `/exports/${exportId}`;

export const ZExportSchema = z.object({
  export_id: ZUuidSchema,
  type: z.enum(EXPORT_TYPES),
  type_display_name: z.string(),
  status: z.enum(EXPORT_STATUSES),
});
export type TExport = z.infer<typeof ZExportSchema>;
export const ZExportResponseSchema = dataEnvelope(ZExportSchema);

export const ZExportDownloadSchema = z.object({
  /** The file, base64. */
  file_content: z.string(),
  file_name: z.string(),
  content_type: z.string(),
  export_id: ZUuidSchema,
  type: z.enum(EXPORT_TYPES),
  type_display_name: z.string(),
});
export type TExportDownload = z.infer<typeof ZExportDownloadSchema>;
export const ZExportDownloadResponseSchema = dataEnvelope(ZExportDownloadSchema);

/** The classroom course export: the statistics CSV inline. */
export const ZCourseExportSchema = z.object({
  base64: z.string(),
  file_name: z.string(),
  content_type: z.string(),
  /** Set when the export was stored (POST), so it can be downloaded again by id. */
  export_id: ZUuidSchema.nullable(),
});
export type TCourseExport = z.infer<typeof ZCourseExportSchema>;
export const ZCourseExportResponseSchema = dataEnvelope(ZCourseExportSchema);

export const ZExportParamsSchema = z.object({ exportId: ZUuidSchema });
export const ZCourseExportParamsSchema = z.object({ courseId: ZUuidSchema });

/**
 * How an export's CSV is written. `excel` (the default, what the web app downloads): a BOM, the
 * requester's language's separator (`CSV_SEPARATORS`) and cells a spreadsheet would run as a
 * formula quoted with `'`. `plain` (what `ccp` asks for): the same bytes whatever the language,
 * no BOM, cells exactly as stored, comma-separated. `delimiter` overrides the separator of either.
 */
export const EXPORT_FORMATS = ['excel', 'plain'] as const;
export type TExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_DELIMITERS = { comma: ',', semicolon: ';', tab: '\t' } as const;
export type TExportDelimiter = keyof typeof EXPORT_DELIMITERS;

export const ZExportFormatQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS).default('excel'),
  delimiter: z.enum(['comma', 'semicolon', 'tab']).optional(),
});
export type TExportFormatQuery = z.input<typeof ZExportFormatQuerySchema>;
