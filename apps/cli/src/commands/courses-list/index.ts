import { dataProvider } from '@ccp/data-provider';
import { PAGINATION } from '@ccp/schemas';
import type { TCourseListItem, TCourseStatus } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession, useClassroom } from '../../lib/client.ts';
import { canColor, canSpin } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { withSpinner } from '../../lib/spinner.ts';
import type { TableColumn, TColor } from '../../lib/table.ts';
import { paint, renderTable } from '../../lib/table.ts';

export type CoursesListOptions = GlobalOptions & {
  archived?: boolean;
  json?: boolean;
  /** At most this many courses (default DEFAULT_LIMIT). */
  limit?: number;
  /** Every course, page after page. */
  all?: boolean;
};

export const DEFAULT_LIMIT = 30;

const STATUS_COLORS: Partial<Record<TCourseStatus, TColor>> = {
  active: 'green',
  scheduled: 'cyan',
  paused: 'yellow',
  draft: 'dim',
  canceled: 'dim',
};

const two = (value: number) => String(value).padStart(2, '0');

/** The spec's display format, DD-MM-YYYY HH:mm, in the local time zone. */
export const formatDateTime = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${two(date.getDate())}-${two(date.getMonth() + 1)}-${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}`;
};

export const COURSE_COLUMNS: readonly TableColumn<TCourseListItem>[] = [
  { header: 'NAME', value: (course) => course.name },
  {
    header: 'STATUS',
    value: (course) => course.status,
    style: (course, text) => {
      const color = STATUS_COLORS[course.status];
      return color ? paint(color, text) : text;
    },
  },
  { header: 'LESSONS', value: (course) => String(course.lessons_count), align: 'right' },
  { header: 'ENROLMENTS', value: (course) => String(course.enrolments), align: 'right' },
  { header: 'UPDATED', value: (course) => formatDateTime(course.updated_at) },
];

/**
 * `ccp courses list`: the current classroom's courses through the shared Refine data provider,
 * newest first. `--json` prints the API's course objects as one array and nothing else on stdout.
 */
export async function coursesList(options: CoursesListOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const { client } = session;
  const provider = dataProvider(client);
  const filters = options.archived
    ? [{ field: 'archived', operator: 'eq' as const, value: true }]
    : [];
  const limit = options.limit ?? DEFAULT_LIMIT;

  const load = async (): Promise<{ courses: TCourseListItem[]; total: number }> => {
    if (options.all) {
      // Pagination "off" is the API's paginate=false: every course in one answer.
      const { data, total } = await provider.getList<TCourseListItem>({
        resource: 'courses',
        pagination: { mode: 'off' },
        filters,
      });
      return { courses: data, total };
    }
    const pageSize = Math.min(limit, PAGINATION.maxPerPage);
    const courses: TCourseListItem[] = [];
    let total = 0;
    for (let currentPage = 1; courses.length < limit; currentPage += 1) {
      const page = await provider.getList<TCourseListItem>({
        resource: 'courses',
        pagination: { currentPage, pageSize, mode: 'server' },
        filters,
      });
      total = page.total;
      courses.push(...page.data);
      if (page.data.length === 0 || courses.length >= total) break;
    }
    return { courses: courses.slice(0, limit), total };
  };
  const { courses, total } = await withSpinner(io, canSpin(io, options), 'Loading courses…', load);

  if (options.json) {
    printJson(io, courses);
    return;
  }
  const kind = options.archived ? 'archived courses' : 'courses';
  if (courses.length === 0) {
    printErr(io, `No ${kind}.`);
    return;
  }
  printOut(io, renderTable(courses, COURSE_COLUMNS, { color: canColor(io, 'stdout') }));
  if (total > courses.length) {
    printErr(
      io,
      `Showing ${courses.length} of ${total} ${kind}. Use --limit <n> or --all for more.`,
    );
  }
}
