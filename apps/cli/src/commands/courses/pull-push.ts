import { readFile, writeFile } from 'node:fs/promises';

import { ApiError, dataProvider } from '@ccp/data-provider';
import {
  EDITABLE_COURSE_STATUSES,
  ZCourseUpdateRequestSchema,
  publishCheck,
  toPublishCourse,
} from '@ccp/schemas';
import type { TCourse, TCourseListItem, TLearnersList, TLocale } from '@ccp/schemas';
import { parse, stringify } from 'yaml';

import type { CliSession, GlobalOptions } from '../../lib/client.ts';
import { requireSession, useClassroom } from '../../lib/client.ts';
import { CliError, EXIT, UsageError } from '../../lib/errors.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { resolveCourse } from '../../lib/resolve.ts';
import { sayText, specText } from '../../lib/texts.ts';
import {
  ZCourseFileSchema,
  courseToFile,
  describeChange,
  diffCourseFiles,
  filePathOf,
  fileToRequest,
} from './course-file.ts';
import type { TCourseFile, TFieldChange } from './course-file.ts';

export type CoursePullOptions = GlobalOptions & { output?: string };
export type CoursePushOptions = GlobalOptions & { dryRun?: boolean; json?: boolean };

const HEADER = `# A CCP course (ccp courses pull). Edit it, check it with
#   ccp courses push <file> --dry-run
# and push it. Without "uuid" a push creates a new course. The first language is the primary
# one; "status: scheduled" publishes. Learner lists are named; the cover image is not here.
`;

/** The file's text: the header comment, then the course in its fixed order. */
export const courseFileText = (file: TCourseFile): string =>
  `${HEADER}${stringify(file, { lineWidth: 0, blockQuote: 'literal', aliasDuplicateObjects: false })}`;

const getCourse = async (session: CliSession, uuid: string): Promise<TCourse> =>
  (await dataProvider(session.client).getOne<TCourse>({ resource: 'courses', id: uuid })).data;

/** `ccp courses pull <course> [-o FILE|-]`: the whole course as a reviewable YAML file. */
export async function coursesPull(wanted: string, options: CoursePullOptions, io: CliIo) {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const found = await resolveCourse(session, wanted);
  const text = courseFileText(courseToFile(await getCourse(session, found.uuid)));
  if (!options.output || options.output === '-') printOut(io, text);
  else {
    await writeFile(options.output, text);
    printErr(io, `Wrote "${found.name}" to ${options.output}.`);
  }
}

const readCourseFile = async (path: string, io: CliIo): Promise<TCourseFile> => {
  let text: string;
  try {
    text =
      path === '-' ? await new Response(io.stdin as never).text() : await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`Cannot read ${path}.`);
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    // The file's content, not the command line: exit 1, as a course that breaks the rules.
    throw new CliError(`${path} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = ZCourseFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new CliError(`${path} is not a course file:\n${lines.join('\n')}`);
  }
  return parsed.data;
};

/** What the API would refuse to change (an active or archived course), in the same words. */
const refusal = (course: TCourse, lang: TLocale): string | null => {
  if (course.deleted_at) return specText(lang, 'courseArchived');
  if (!EDITABLE_COURSE_STATUSES.includes(course.status)) return specText(lang, 'courseNotEditable');
  return null;
};

/** A change as JSON: the values themselves, not their JSON text. */
const changeJson = ({ path, before, after }: TFieldChange) => ({
  path,
  ...(before === undefined ? {} : { before: JSON.parse(before) as unknown }),
  ...(after === undefined ? {} : { after: JSON.parse(after) as unknown }),
});

/**
 * A file without uuid creates a course: refused when the classroom has one of that name already
 * (pushing the same file twice would make two), naming the uuid that would update it.
 */
const assertNewName = async (session: CliSession, file: TCourseFile, path: string) => {
  const { data } = await dataProvider(session.client).getList<
    Pick<TCourseListItem, 'uuid' | 'name'>
  >({ resource: 'courses-short' });
  const same = data.find((course) => course.name.toLowerCase() === file.name.toLowerCase());
  if (same) {
    throw new CliError(
      `${path} has no uuid, so it would create a new course, but "${same.name}" exists (${same.uuid}). Add "uuid: ${same.uuid}" to update it, or change "name" to create another.`,
    );
  }
};

/**
 * `ccp courses push FILE [--dry-run]`: checks the file with the shared course rules (and the
 * publish check when it says scheduled), shows what changes field by field, then creates or
 * updates the course. No change, no request.
 */
export async function coursesPush(path: string, options: CoursePushOptions, io: CliIo) {
  const file = await readCourseFile(path, io);
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const lang = session.lang;

  const lists = file.learners_lists.length
    ? (await dataProvider(session.client).getList<TLearnersList>({ resource: 'learners-lists' }))
        .data
    : [];
  const listUuids = file.learners_lists.map((name) => {
    const list = lists.find((candidate) => candidate.name === name || candidate.uuid === name);
    if (!list) throw new UsageError(`learners_lists: there is no learners list "${name}".`);
    return list.uuid;
  });
  const request = fileToRequest(file, listUuids);
  const problems: string[] = [];
  const parsed = ZCourseUpdateRequestSchema.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(
        `${filePathOf(issue.path.join('.'), request)}: ${sayText(lang, issue.message)}`,
      );
    }
  }
  if (file.status === 'scheduled') {
    for (const problem of publishCheck(toPublishCourse(request), {
      now: new Date(),
      hasLearnersLists: lists.length > 0,
    })) {
      problems.push(`${filePathOf(problem.path, request)}: ${problem.message}`);
    }
  }
  if (problems.length > 0) {
    throw new CliError(
      `${path} cannot be pushed:\n${[...new Set(problems)].map((line) => `  ${line}`).join('\n')}`,
      EXIT.error,
    );
  }

  let current: TCourse | null = null;
  if (file.uuid) {
    try {
      current = await getCourse(session, file.uuid);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw new UsageError(
          `uuid: no course ${file.uuid} in this classroom. Remove "uuid" to create a new course.`,
        );
      }
      throw error;
    }
  }
  if (!current) await assertNewName(session, file, path);
  const changes = diffCourseFiles(current ? courseToFile(current) : null, file);
  const target = current
    ? `"${current.name}"`
    : `a new course "${file.name}" (the file has no uuid)`;
  if (!options.json) {
    for (const change of changes) printOut(io, describeChange(change));
  }
  if (changes.length === 0) {
    if (options.json) printJson(io, { uuid: file.uuid, changes: [] });
    else printErr(io, `No changes: ${target} is as the file says.`);
    return;
  }
  // The dry run fails as the push would: the API edits only draft, scheduled or paused courses.
  const refused = current ? refusal(current, lang) : null;
  if (refused) throw new CliError(`${target}: ${refused}`, EXIT.error);
  if (options.dryRun) {
    if (options.json) printJson(io, { uuid: file.uuid ?? null, changes: changes.map(changeJson) });
    else {
      printErr(
        io,
        `Dry run: ${current ? `${changes.length} change(s) to ${target}` : `would create ${target} with ${changes.length} field(s)`}; nothing was sent.`,
      );
    }
    return;
  }
  const provider = dataProvider(session.client);
  let uuid = current?.uuid;
  if (!uuid) {
    const created = await provider.create<TCourse>({
      resource: 'courses',
      variables: { name: file.name, description: file.description, language: file.languages[0] },
    });
    uuid = created.data.uuid;
  }
  const saved = (
    await provider.update<TCourse>({ resource: 'courses', id: uuid, variables: request })
  ).data;
  if (options.json) printJson(io, { uuid: saved.uuid, changes: changes.map(changeJson) });
  else {
    printErr(
      io,
      `${current ? 'Updated' : 'Created'} "${saved.name}" (${saved.uuid}): ${changes.length} change(s).`,
    );
    if (!current)
      printErr(
        io,
        `Add "uuid: ${saved.uuid}" to ${path} (or pull it again) so the next push updates it.`,
      );
  }
}
