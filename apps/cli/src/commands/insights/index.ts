import { writeFile } from 'node:fs/promises';

import { ApiError, dataProvider } from '@ccp/data-provider';
import type {
  TCourseInsight,
  TExport,
  TExportDelimiter,
  TExportDownload,
  TExportType,
} from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession, useClassroom } from '../../lib/client.ts';
import { CliError, EXIT } from '../../lib/errors.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { resolveCourse } from '../../lib/resolve.ts';

export type InsightsShowOptions = GlobalOptions & { course: string; json?: boolean };
export type InsightsExportOptions = GlobalOptions & {
  course: string;
  type: 'statistics' | 'not-enrolled';
  /** A file, or `-` for stdout (the default). */
  output?: string;
  delimiter?: TExportDelimiter;
  bom?: boolean;
  /** The spreadsheet variant: BOM, the language's separator, the formula guard. */
  excel?: boolean;
};

export const EXPORT_TYPE_OF: Record<InsightsExportOptions['type'], TExportType> = {
  statistics: 'statistics',
  'not-enrolled': 'not_enrolled_learners',
};

const noData = (name: string) =>
  new CliError(
    `No data yet for "${name}": the course has not delivered to any learner.`,
    EXIT.incomplete,
  );

const FIGURES: [keyof TCourseInsight, string][] = [
  ['learners', 'Learners'],
  ['delivery', 'Delivery %'],
  ['enrollment', 'Enrollment %'],
  ['completion', 'Completion %'],
  ['activity', 'Activity %'],
  ['progress', 'Progress %'],
  ['engagementRate', 'Engagement %'],
  ['successRate', 'Success %'],
  ['retention', 'Retention %'],
  ['dormantLearners', 'Dormant learners'],
  ['mood', 'Mood'],
  ['zick_score', 'Zick score'],
];

/** `ccp insights show --course`: the course's figures (exit 3 while it has none). */
export async function insightsShow(options: InsightsShowOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const course = await resolveCourse(session, options.course);
  const { data } = await dataProvider(session.client).getList<TCourseInsight>({
    resource: 'analytics',
    meta: { report: 'courses-insights' },
  });
  const insight = data.find((candidate) => candidate.uuid === course.uuid);
  if (!insight) throw noData(course.name);
  if (options.json) {
    printJson(io, insight);
    return;
  }
  const width = Math.max(...FIGURES.map(([, label]) => label.length)) + 1;
  printOut(
    io,
    [`${'Course:'.padEnd(width)} ${insight.name} (${insight.status})`]
      .concat(FIGURES.map(([key, label]) => `${`${label}:`.padEnd(width)} ${String(insight[key])}`))
      .join('\n'),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Data rows of an RFC 4180 CSV: records after the header, quoted line breaks inside a field. */
export const csvDataRows = (text: string): number => {
  let records = 0;
  let quoted = false;
  let content = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) {
      if (content) records += 1;
      content = false;
    } else if (char !== '\r' && char !== '\uFEFF') content = true;
  }
  if (content) records += 1;
  return Math.max(0, records - 1);
};

/**
 * `ccp insights export --course --type -o FILE|-`: requests the export (plain unless --excel),
 * waits until it can be downloaded, and writes the file's bytes (with a BOM for --bom). Exit 3
 * when it has no data rows (the file is still written: a header line).
 */
export async function insightsExport(options: InsightsExportOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const course = await resolveCourse(session, options.course);
  const provider = dataProvider(session.client);
  const requested = (
    await provider.create<TExport>({
      resource: 'exports',
      variables: {
        type: EXPORT_TYPE_OF[options.type],
        course_id: course.uuid,
        // Plain unless asked: a file a program reads must not change with the runner's LANG.
        format: options.excel ? 'excel' : 'plain',
        delimiter: options.delimiter,
      },
    })
  ).data;
  let file: TExportDownload | null = null;
  // Exports are produced when requested today; a pending one is polled for up to a minute.
  for (let attempt = 0; attempt < 120 && file === null; attempt += 1) {
    try {
      file = (
        await provider.getOne<TExportDownload>({
          resource: 'exports',
          id: requested.export_id,
          meta: { errorFeedback: attempt === 119 ? undefined : 'caller' },
        })
      ).data;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404) || attempt === 119) throw error;
      await sleep(500);
    }
  }
  const content = Buffer.from(file!.file_content, 'base64');
  const hasBom = content.subarray(0, 3).equals(UTF8_BOM);
  const bytes = options.bom && !hasBom ? Buffer.concat([UTF8_BOM, content]) : content;
  const output = options.output ?? '-';
  if (output === '-') {
    await new Promise<void>((resolve, reject) =>
      io.stdout.write(bytes as unknown as string, (error) => (error ? reject(error) : resolve())),
    );
  } else {
    await writeFile(output, bytes);
    printErr(io, `Wrote ${file!.file_name} (${bytes.length} bytes) to ${output}.`);
  }
  if (csvDataRows(bytes.toString('utf8')) === 0) throw noData(course.name);
}
