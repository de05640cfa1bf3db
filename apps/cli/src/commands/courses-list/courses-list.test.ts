import type { TCourseListItem } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { canColor } from '../../lib/interactive.ts';
import { renderTable } from '../../lib/table.ts';
import { createTestIo, runInProcess } from '../../lib/test-io.ts';
import { COURSE_COLUMNS, formatDateTime } from './index.ts';

const course = (overrides: Partial<TCourseListItem>): TCourseListItem => ({
  uuid: '9556bada-2e57-4726-b973-928e462e4275',
  name: 'Cold Calling 101',
  description: 'd',
  image: null,
  category: null,
  enrollment: null,
  status: 'draft',
  languages: [],
  lessons_count: 3,
  distribution: null,
  learners_lists: [],
  enrolments: 0,
  reached: null,
  creator: null,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
  scheduled_at: null,
  first_send_at: null,
  delivered_at: null,
  deleted_at: null,
  ...overrides,
});

const courses = [
  course({ name: 'Cold Calling 101', status: 'draft', lessons_count: 3, enrolments: 0 }),
  course({ name: 'Negotiation Basics', status: 'active', lessons_count: 5, enrolments: 290 }),
];

const env = { CCP_CONFIG_DIR: '/nonexistent/ccp', CCP_API_URL: 'http://127.0.0.1:9' };

describe('ccp courses list (options)', () => {
  it.each([['0'], ['-3'], ['2.5'], ['ten']])('exits 2 on --limit %s', async (limit) => {
    const result = await runInProcess(['courses', 'list', '--limit', limit], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Expected a whole number of at least 1.');
  });

  it('exits 2 on --limit with --all', async () => {
    const result = await runInProcess(['courses', 'list', '--limit', '5', '--all'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("option '--limit <n>' cannot be used with option '--all'");
  });

  it('exits 4 when not signed in', async () => {
    const result = await runInProcess(['courses', 'list', '--json'], { env });
    expect(result).toEqual({
      code: 4,
      stdout: '',
      stderr: 'Not signed in to http://127.0.0.1:9. Run: ccp login\n',
    });
  });
});

describe('the courses table', () => {
  it('has no ANSI codes when stdout is not a terminal, even if stderr is', () => {
    const { io } = createTestIo({ stdoutIsTTY: false, stderrIsTTY: true });
    const table = renderTable(courses, COURSE_COLUMNS, { color: canColor(io, 'stdout') });
    expect(table).not.toContain('\u001B');
    const updated = formatDateTime('2026-01-05T10:00:00.000Z');
    expect(table).toBe(
      [
        'NAME                STATUS  LESSONS  ENROLMENTS  UPDATED',
        `Cold Calling 101    draft         3           0  ${updated}`,
        `Negotiation Basics  active        5         290  ${updated}`,
      ].join('\n'),
    );
  });

  it('has no ANSI codes on a terminal with NO_COLOR, and colours the status otherwise', () => {
    const noColor = createTestIo({ stdoutIsTTY: true, env: { NO_COLOR: '1' } }).io;
    expect(
      renderTable(courses, COURSE_COLUMNS, { color: canColor(noColor, 'stdout') }),
    ).not.toContain('\u001B');
    const tty = createTestIo({ stdoutIsTTY: true }).io;
    expect(renderTable(courses, COURSE_COLUMNS, { color: canColor(tty, 'stdout') })).toContain(
      '\u001B[32mactive\u001B[39m',
    );
  });

  it('formats dates as DD-MM-YYYY HH:mm (the spec’s display format)', () => {
    expect(formatDateTime('2026-01-05T10:07:00.000Z')).toMatch(/^\d{2}-\d{2}-2026 \d{2}:07$/);
    expect(formatDateTime('garbage')).toBe('garbage');
  });
});
