import { sql } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';

import type { Db } from '../db/index.ts';
import type { Database, LearnersTable } from '../db/types.ts';
import { offsetOf } from '../lib/pagination.ts';
import type { PageRequest } from '../lib/pagination.ts';
import { cacheOf } from './learner-page-cache.ts';
import { learnersVersion } from './learners-version.ts';

// GET /learners at scale (issue 14; docs/decisions.md "Learners list at scale"): page numbers stay
// the contract (spec §4: from 1, further pages appended), and behind them each query — a
// company's live or archived learners, maybe of one list, maybe searched — is counted once per
// version of the company's learners and paged from remembered positions:
// - the list's order, newest first then by uuid descending, is learners_company_idx (0019);
// - without a search, the total is a count of that index (a list's: its members less its
//   archived ones) and a page seeks from a remembered position ("rung") every `step` learners,
//   found lazily by walking the index, then skips fewer than `step`;
// - a search reads the company's learners once and keeps every match in order when there are
//   at most ALL_KEYS, else every SEARCH_STEP-th match as a rung.

/** What GET /learners asks for: one company's learners, a page of them. */
export type LearnerPageQuery = {
  companyUuid: string;
  archived: boolean;
  /** Only the members of this list (checked to be the company's by the caller). */
  listUuid?: string | undefined;
  search?: string | undefined;
  page: PageRequest;
};

/**
 * How a search term matches a learner's "first last" name and e-mail, case-insensitively:
 * anywhere in them (`contains`, the choice recorded in docs/decisions.md) or at their start
 * (`starts-with`, which also tries the last name alone). A phone matches when its digits contain
 * the term's (a national number is inside the stored E.164 one), whichever the choice.
 */
export const LEARNER_SEARCH_MATCH = 'contains' as LearnerSearchMatch;
export type LearnerSearchMatch = 'contains' | 'starts-with';

/** A LIKE pattern for the term, with `!` as the escape character so `%` and `_` match themselves. */
export const likePattern = (text: string): string => {
  const escaped = text.toLowerCase().replace(/[!%_]/g, (char) => `!${char}`);
  return LEARNER_SEARCH_MATCH === 'contains' ? `%${escaped}%` : `${escaped}%`;
};

/** The digits a term that looks like a phone number stands for (with and without a trunk 0). */
const phoneDigits = (term: string): string[] => {
  if (!/^\+?[\d\s().\-/]+$/.test(term)) return [];
  const digits = term.replace(/\D/g, '');
  if (digits.length < 3) return [];
  // "0039 333…" is "+39 333…"; "087 123…" (Ireland) is stored without its trunk 0.
  const international = digits.replace(/^00/, '');
  if (international !== digits) return [international];
  return digits.startsWith('0') ? [digits, digits.slice(1)] : [digits];
};

/** A learner matching the term (portable: SQLite's and Postgres's LIKE differ only in case). */
const searchFilter = (term: string) => {
  const pattern = likePattern(term);
  const arms = [
    sql`lower(learners.first_name || ' ' || learners.last_name) like ${pattern} escape '!'`,
    // E-mails are stored lowercased.
    sql`learners.email like ${pattern} escape '!'`,
  ];
  if (LEARNER_SEARCH_MATCH === 'starts-with') {
    arms.push(sql`lower(learners.last_name) like ${pattern} escape '!'`);
  }
  for (const digits of phoneDigits(term)) arms.push(sql`learners.phone like ${`%${digits}%`}`);
  return sql<boolean>`(${sql.join(arms, sql` or `)})`;
};

/** A learner's place in the list's order (created_at desc, uuid desc). */
type Key = Pick<LearnersTable, 'created_at' | 'uuid'>;

/** A query's remembered total and page positions, for one version of the company's learners. */
type QueryState = {
  total: number;
  /** Every match in order, when there are at most ALL_KEYS (a search, a small list). */
  keys: Key[] | null;
  /** rungs[j - 1]: the key at (0-based) position j × step − 1; a page seeks from the nearest. */
  rungs: Key[];
  step: number;
  /** Rungs are found by walking the list, one walk at a time. */
  walking: Promise<void>;
};

/** At most this many matches are remembered one by one; beyond, every SEARCH_STEP-th. */
const ALL_KEYS = 2000;
/**
 * Rung steps: on the index alone (no list, no search) skipping 999 entries costs less than a
 * seek; a list tests each learner's membership, a search each learner's names (a page of a
 * search with more than ALL_KEYS matches walks at most SEARCH_STEP / density learners: 1,250
 * when 2 % match).
 */
const INDEX_STEP = 1000;
const LIST_STEP = 100;
const SEARCH_STEP = 25;

type LearnersQuery = SelectQueryBuilder<Database, 'learners', object>;

/** The query's learners, in no order. */
const matching = (db: Db, query: LearnerPageQuery): LearnersQuery => {
  let builder = db
    .selectFrom('learners')
    .where('learners.company_uuid', '=', query.companyUuid)
    .where('learners.deleted_at', query.archived ? 'is not' : 'is', null);
  const { listUuid, search } = query;
  if (listUuid) {
    builder = builder.where((eb) =>
      eb.exists(
        eb
          .selectFrom('learners_list_members as m')
          .select('m.learner_uuid')
          .where('m.list_uuid', '=', listUuid)
          .whereRef('m.learner_uuid', '=', 'learners.uuid'),
      ),
    );
  }
  if (search) builder = builder.where(searchFilter(search));
  return builder;
};

/** In the list's order, after `start` when given (a keyset seek on learners_company_idx). */
const inOrder = (builder: LearnersQuery, start?: Key) =>
  (start
    ? builder.where(
        sql<boolean>`(learners.created_at, learners.uuid) < (${start.created_at}, ${start.uuid})`,
      )
    : builder
  )
    .orderBy('learners.created_at', 'desc')
    .orderBy('learners.uuid', 'desc');

/** Newest first, then by uuid descending: the databases' binary order of these ASCII texts. */
const newestFirst = (a: Key, b: Key) =>
  a.created_at !== b.created_at
    ? a.created_at < b.created_at
      ? 1
      : -1
    : a.uuid < b.uuid
      ? 1
      : a.uuid > b.uuid
        ? -1
        : 0;

/** The state of keys read in any order: all of them when few, else every SEARCH_STEP-th. */
const stateOfKeys = (keys: Key[]): QueryState => {
  keys.sort(newestFirst);
  const few = keys.length <= ALL_KEYS;
  return {
    total: keys.length,
    keys: few ? keys : null,
    rungs: few ? [] : keys.filter((_, index) => (index + 1) % SEARCH_STEP === 0),
    step: SEARCH_STEP,
    walking: Promise.resolve(),
  };
};

/** Memberships of the company's archived learners (few, usually), read from those learners. */
export const archivedMembers = (db: Db, companyUuid: string) =>
  db
    .selectFrom('learners')
    // CROSS JOIN: SQLite keeps this order (the archived learners first, then their memberships).
    .crossJoin('learners_list_members as m')
    .whereRef('m.learner_uuid', '=', 'learners.uuid')
    .where('learners.company_uuid', '=', companyUuid)
    .where('learners.deleted_at', 'is not', null);

/** How many (non-)archived members the list has: its members less (or only) the archived ones. */
const listTotal = async (db: Db, companyUuid: string, listUuid: string, archived: boolean) => {
  const [members, archivedCount] = await Promise.all([
    archived
      ? 0
      : db
          .selectFrom('learners_list_members')
          .where('list_uuid', '=', listUuid)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.count)),
    archivedMembers(db, companyUuid)
      .where('m.list_uuid', '=', listUuid)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return archived ? archivedCount : members - archivedCount;
};

/** Counts the query, or reads all its matches when it is a search or a small list. */
const computeState = async (db: Db, query: LearnerPageQuery): Promise<QueryState> => {
  const select = (builder: LearnersQuery) =>
    builder.select(['learners.created_at', 'learners.uuid']).execute();
  // One pass over the company's learners, the matches sorted here: walking the order index
  // instead would read every learner's row in the index's order, several times slower.
  if (query.search) return stateOfKeys(await select(matching(db, query)));
  const { companyUuid, listUuid, archived } = query;
  let total: number;
  if (listUuid) {
    total = await listTotal(db, companyUuid, listUuid, archived);
    if (total <= ALL_KEYS) {
      // From the memberships (a small list of a large company is not walked for).
      const keys = await select(
        matching(db, { ...query, listUuid: undefined })
          .innerJoin('learners_list_members as m', 'm.learner_uuid', 'learners.uuid')
          .where('m.list_uuid', '=', listUuid),
      );
      return stateOfKeys(keys);
    }
  } else {
    const row = await matching(db, query)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    total = Number(row.count);
  }
  return {
    total,
    keys: null,
    rungs: [],
    step: listUuid ? LIST_STEP : INDEX_STEP,
    walking: Promise.resolve(),
  };
};

/** Finds the rungs up to `count` (fewer when the list ends first), one step after the other. */
const walkRungs = (db: Db, query: LearnerPageQuery, state: QueryState, count: number) => {
  const walk = state.walking.then(async () => {
    while (state.rungs.length < count) {
      const next = await inOrder(matching(db, query), state.rungs.at(-1))
        .select(['learners.created_at', 'learners.uuid'])
        .limit(1)
        .offset(state.step - 1)
        .executeTakeFirst();
      if (!next) return;
      state.rungs.push(next);
    }
  });
  // A failed walk fails its request only; the next one walks again from the last rung found.
  state.walking = walk.catch(() => undefined);
  return walk;
};

/** Learner rows by uuid, in the order of `uuids`. */
const rowsInOrder = async (db: Db, uuids: string[]): Promise<LearnersTable[]> => {
  if (uuids.length === 0) return [];
  const rows = await db.selectFrom('learners').selectAll().where('uuid', 'in', uuids).execute();
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  return uuids.flatMap((uuid) => byUuid.get(uuid) ?? []);
};

/** The query's state at the company's current version (computed once per version). */
const stateOf = async (db: Db, query: LearnerPageQuery): Promise<QueryState> => {
  const version = await learnersVersion(db, query.companyUuid);
  const key = JSON.stringify([
    query.companyUuid,
    query.archived,
    query.listUuid ?? null,
    query.search?.toLowerCase() ?? null,
  ]);
  return cacheOf<QueryState>(db, 'learner-pages').get(key, version, () => computeState(db, query));
};

/** The company's (non-)archived learners: a count remembered per version. */
export const learnersTotal = async (
  db: Db,
  companyUuid: string,
  archived: boolean,
): Promise<number> =>
  (await stateOf(db, { companyUuid, archived, page: { page: 1, perPage: 1 } })).total;

/** A page of learners, newest first (then by uuid, descending), and how many match in all. */
export const learnerPage = async (
  db: Db,
  query: LearnerPageQuery,
): Promise<{ rows: LearnersTable[]; total: number }> => {
  const state = await stateOf(db, query);
  const { total } = state;
  const { perPage } = query.page;
  const offset = offsetOf(query.page);
  if (offset >= total) return { rows: [], total };
  if (state.keys) {
    const uuids = state.keys.slice(offset, offset + perPage).map((key) => key.uuid);
    return { rows: await rowsInOrder(db, uuids), total };
  }
  const rung = Math.floor(offset / state.step);
  if (state.rungs.length < rung) await walkRungs(db, query, state, rung);
  // The list ended before the rung (it shrank while this version was read): no such page.
  if (state.rungs.length < rung) return { rows: [], total };
  const rows = await inOrder(matching(db, query), rung > 0 ? state.rungs[rung - 1] : undefined)
    .selectAll('learners')
    .limit(perPage)
    .offset(offset - rung * state.step)
    .execute();
  return { rows, total };
};
