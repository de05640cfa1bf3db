import { describe, expect, it } from 'vitest';

import {
  EXPORT_TYPES,
  EXPORT_TYPE_DISPLAY_NAMES,
  ZExportDownloadSchema,
  ZExportSchema,
  exportDownloadPath,
} from './exports.ts';

describe('exports', () => {
  it('names every export type for display', () => {
    expect(EXPORT_TYPES.map((type) => EXPORT_TYPE_DISPLAY_NAMES[type])).toEqual([
      'Delivery statistics',
      'Not enrolled learners',
      'Course statistics',
    ]);
  });

  it('links the web app’s download page', () => {
    expect(exportDownloadPath('6a1c2f3e-0001-4c00-8000-000000000001')).toBe(
      '/exports/6a1c2f3e-0001-4c00-8000-000000000001',
    );
  });

  it('refuses an unknown type or status', () => {
    const valid = {
      export_id: '6a1c2f3e-0001-4c00-8000-000000000001',
      type: 'statistics',
      type_display_name: 'Delivery statistics',
      status: 'ready',
    };
    expect(ZExportSchema.parse(valid)).toEqual(valid);
    expect(ZExportSchema.safeParse({ ...valid, type: 'everything' }).success).toBe(false);
    expect(ZExportSchema.safeParse({ ...valid, status: 'done' }).success).toBe(false);
  });

  it('requires every field of a download', () => {
    const result = ZExportDownloadSchema.safeParse({ file_content: '' });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'file_name',
      'content_type',
      'export_id',
      'type',
      'type_display_name',
    ]);
  });
});
