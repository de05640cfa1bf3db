import { ApiError, dataProvider } from '@ccp/data-provider';
import type { TCourseListItem, TLearner, TLearnersList } from '@ccp/schemas';

import type { CliSession } from './client.ts';
import { UsageError } from './errors.ts';
import { canPrompt } from './interactive.ts';
import type { ModeFlags } from './interactive.ts';
import type { CliIo } from './io.ts';
import { createPrompter } from './prompt.ts';

// Things named on the command line by name or uuid (or a learner by e-mail).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pick = <T extends { uuid: string }>(
  items: readonly T[],
  wanted: string,
  nameOf: (item: T) => string,
  what: string,
): T => {
  const byUuid = items.find((item) => item.uuid === wanted);
  if (byUuid) return byUuid;
  const named = items.filter((item) => nameOf(item).toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} ${what}s are named "${wanted}": give the uuid (${named.map((item) => item.uuid).join(', ')}).`,
    );
  }
  throw new UsageError(`No ${what} "${wanted}" in this classroom.`);
};

/**
 * A course of the current classroom by name or uuid: first among the live courses' names
 * (courses/short, which any API token may read), then among every course, archived included.
 */
export const resolveCourse = async (
  session: CliSession,
  wanted: string,
): Promise<Pick<TCourseListItem, 'uuid' | 'name' | 'status'>> => {
  const provider = dataProvider(session.client);
  const short = (
    await provider.getList<Pick<TCourseListItem, 'uuid' | 'name' | 'status'>>({
      resource: 'courses-short',
    })
  ).data;
  const named = (course: { uuid: string; name: string }) =>
    course.uuid === wanted || course.name.toLowerCase() === wanted.toLowerCase();
  if (short.some(named)) return pick(short, wanted, (course) => course.name, 'course');
  let archived: TCourseListItem[] = [];
  try {
    archived = (
      await provider.getList<TCourseListItem>({
        resource: 'courses',
        pagination: { mode: 'off' },
        filters: [{ field: 'archived', operator: 'eq', value: true }],
        meta: { errorFeedback: 'caller' },
      })
    ).data;
  } catch (error) {
    // A token without courses:read sees live courses only: the course is then not found.
    if (!(error instanceof ApiError && error.status === 403)) throw error;
  }
  return pick([...short, ...archived], wanted, (course) => course.name, 'course');
};

export const resolveList = async (session: CliSession, wanted: string): Promise<TLearnersList> => {
  const { data } = await dataProvider(session.client).getList<TLearnersList>({
    resource: 'learners-lists',
  });
  return pick(data, wanted, (list) => list.name, 'learners list');
};

/** A learner by uuid, or by e-mail (live or archived). */
export const resolveLearner = async (session: CliSession, wanted: string): Promise<TLearner> => {
  const provider = dataProvider(session.client);
  if (UUID.test(wanted)) {
    return (await provider.getOne<TLearner>({ resource: 'learners', id: wanted })).data;
  }
  for (const archived of [false, true]) {
    const { data } = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
      filters: [
        { field: 'search', operator: 'contains', value: wanted },
        { field: 'archived', operator: 'eq', value: archived },
      ],
    });
    const found = data.find((learner) => learner.email?.toLowerCase() === wanted.toLowerCase());
    if (found) return found;
  }
  throw new UsageError(`No learner "${wanted}": give a uuid or an e-mail.`);
};

/** A permanent change: `--yes`, or a yes at the prompt on a terminal. */
export const confirmOrYes = async (
  io: CliIo,
  options: ModeFlags & { yes?: boolean },
  message: string,
): Promise<void> => {
  if (options.yes) return;
  const ask = await createPrompter(io, canPrompt(io, options));
  if (!(await ask.confirm({ message, flag: '--yes' })))
    throw new UsageError('Nothing was changed.');
};
