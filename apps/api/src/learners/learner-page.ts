import { sql } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';
import type { TLearnerListRef } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { Database, LearnersTable } from '../db/types.ts';
import { offsetOf } from '../lib/pagination.ts';
import type { PageRequest } from '../lib/pagination.ts';
import { VersionedCache, cacheOf } from './learner-page-cache.ts';
import { indexable, newestFirst, searchIndex, searchIndexOf } from './learner-search-index.ts';
import { listsOfLearners } from './learner-serializer.ts';
import { listMemberCounts } from './learners-lists-repository.ts';
import { learnersVersion } from './learners-version.ts';

// GET /learners at scale (issue 14; docs/decisions.md "Learners list at scale"): page numbers stay
// the contract (spec §4: from 1, further pages appended), and behind them each query — a
// company's live or archived learners, maybe of one list, maybe searched — is read once per
// version of the company's learners:
// - the order, newest first then by uuid descending, is learners_live_order_idx or
//   learners_archived_order_idx (0024);
// - all the company's learners: the total is a count of that index, and a page seeks from a
//   remembered position ("rung") every INDEX_STEP learners, found by walking the index the
//   first time a page past it is asked, then skips fewer than INDEX_STEP;
// - a list's members: the total is the lists' member count (learners-lists-repository.ts); a
//   small list is read whole, a larger one walked as above with rungs every LIST_STEP members;
// - a search's matches are found in the company's search index (learner-search-index.ts: built
//   once per version, scanned in a few ms) and kept as uuids in order; the SQL path (one pass
//   over the company's learners, its matches sorted) is kept for "starts-with".

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
  /** A search's matches or a small list's members in order (read once, sorted here). */
  uuids: string[] | null;
  /**
   * Otherwise rungs[j - 1] is the key at (0-based) position j × step − 1, found when a page past
   * it is first asked; a page seeks from the nearest and skips fewer than `step`.
   */
  rungs: Key[];
  step: number;
  /** Rungs are found by walking the list, one walk at a time. */
  walking: Promise<void>;
};

/**
 * Rung steps. All the company's learners: skipping fewer than 1,000 entries of the order index
 * costs less than a seek (0.1 ms on SQLite), and 100,000 learners have 100 rungs. A list's
 * members: the walk tests each learner's membership (a probe of the membership key).
 */
const INDEX_STEP = 1000;
const LIST_STEP = 100;
/**
 * A list of at most this many members is read whole from its memberships (a small list of a
 * large company is not walked for). A larger one is walked: reading 100,000 members whole is a
 * lookup of each learner, about a second on SQLite.
 */
const SMALL_LIST = 2000;
/** What the cache of query states keeps in all, in uuids (a uuid is about 60 bytes: ~18 MB). */
const KEPT_UUIDS = 300_000;

type LearnersQuery = SelectQueryBuilder<Database, 'learners', object>;

/** The query's learners, in no order. */
const matching = (db: Db, query: LearnerPageQuery): LearnersQuery => {
  let builder = db
    .selectFrom('learners')
    .where('learners.company_uuid', '=', query.companyUuid)
    .where('learners.deleted_at', query.archived ? 'is not' : 'is', null);
  const { listUuid, search } = query;
  if (search) builder = builder.where(searchFilter(search));
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
  return builder;
};

/** In the list's order, after `start` when given (a keyset seek on the order index of 0019). */
const inOrder = (builder: LearnersQuery, start?: Key) =>
  (start
    ? builder.where(
        sql<boolean>`(learners.created_at, learners.uuid) < (${start.created_at}, ${start.uuid})`,
      )
    : builder
  )
    .orderBy('learners.created_at', 'desc')
    .orderBy('learners.uuid', 'desc');

/** The state of uuids in the list's order. */
const stateOfUuids = (uuids: string[]): QueryState => ({
  total: uuids.length,
  uuids,
  rungs: [],
  step: INDEX_STEP,
  walking: Promise.resolve(),
});

/** The state of keys read in any order: their uuids, sorted. */
const stateOfKeys = (keys: Key[]): QueryState =>
  stateOfUuids(keys.sort(newestFirst).map((key) => key.uuid));

/** Uuids of one query at a time in a membership probe (well below both databases' limits). */
const PROBE_CHUNK = 1000;

/** The learners of `uuids` (in their order) that are members of the list. */
const membersOf = async (db: Db, listUuid: string, uuids: string[]): Promise<string[]> => {
  const members = new Set<string>();
  for (let start = 0; start < uuids.length; start += PROBE_CHUNK) {
    const rows = await db
      .selectFrom('learners_list_members')
      .select('learner_uuid')
      .where('list_uuid', '=', listUuid)
      .where('learner_uuid', 'in', uuids.slice(start, start + PROBE_CHUNK))
      .execute();
    for (const row of rows) members.add(row.learner_uuid);
  }
  return uuids.filter((uuid) => members.has(uuid));
};

/**
 * A search's matches from the company's search index, in the list's order (a list's members
 * among them); null when the index cannot answer it (a "starts-with" search, a term holding a
 * separator).
 */
const indexedSearch = async (
  db: Db,
  query: LearnerPageQuery,
  term: string,
  version: number,
): Promise<string[] | null> => {
  if (LEARNER_SEARCH_MATCH !== 'contains' || !indexable(term)) return null;
  const index = await searchIndexOf(db, query.companyUuid, query.archived, version);
  const uuids = searchIndex(index, term, phoneDigits(term));
  return query.listUuid && uuids.length > 0 ? membersOf(db, query.listUuid, uuids) : uuids;
};

/** The state of learners whose pages are walked: all the company's, or a large list's. */
const walkedState = (total: number, step: number): QueryState => ({
  total,
  uuids: null,
  rungs: [],
  step,
  walking: Promise.resolve(),
});

/**
 * A search's matches without the index, in the list's order: one pass over the company's
 * learners, the matches sorted here (walking the order index instead would read each learner's
 * row in the index's order, several times slower, and Postgres, whose estimate of a LIKE's
 * matches is far too low, would read them all per page). Exported for the tests that hold the
 * index to the same answers.
 */
export const searchInSql = async (db: Db, query: LearnerPageQuery): Promise<string[]> => {
  const keys = await matching(db, query).select(['learners.created_at', 'learners.uuid']).execute();
  return keys.sort(newestFirst).map((key) => key.uuid);
};

/** Reads a search's matches, counts all the company's learners, or counts a list's members. */
const computeState = async (
  db: Db,
  query: LearnerPageQuery,
  version: number,
): Promise<QueryState> => {
  const select = (builder: LearnersQuery) =>
    builder.select(['learners.created_at', 'learners.uuid']).execute();
  if (query.search) {
    const uuids =
      (await indexedSearch(db, query, query.search, version)) ?? (await searchInSql(db, query));
    return stateOfUuids(uuids);
  }
  const { listUuid } = query;
  if (!listUuid) {
    const row = await matching(db, query)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return walkedState(Number(row.count), INDEX_STEP);
  }
  const counts = (await listMemberCounts(db, query.companyUuid)).get(listUuid);
  const total = (query.archived ? counts?.archived : counts?.live) ?? 0;
  if (total > SMALL_LIST) return walkedState(total, LIST_STEP);
  const members = matching(db, { ...query, listUuid: undefined })
    .innerJoin('learners_list_members as m', 'm.learner_uuid', 'learners.uuid')
    .where('m.list_uuid', '=', listUuid);
  return stateOfKeys(await select(members));
};

/**
 * Finds the rungs up to `count` (fewer when the list ends first) in one query: the next
 * (count − known) × step keys in order, numbered, every step-th kept. One query instead of one
 * per rung: 50 rungs of a list cost 0.35 s on SQLite and 1.7 s on Postgres one by one (a round
 * trip each), 0.1 s and 0.45 s so (load 12).
 */
const walkRungs = (db: Db, query: LearnerPageQuery, state: QueryState, count: number) => {
  const walk = state.walking.then(async () => {
    const missing = count - state.rungs.length;
    if (missing <= 0) return;
    const keys = inOrder(matching(db, query), state.rungs.at(-1))
      .select(['learners.created_at', 'learners.uuid'])
      .limit(missing * state.step);
    const numbered = db
      .selectFrom(keys.as('k'))
      .select([
        'k.created_at',
        'k.uuid',
        sql<number>`row_number() over (order by k.created_at desc, k.uuid desc)`.as('n'),
      ]);
    const rungs = await db
      .selectFrom(numbered.as('r'))
      .select(['r.created_at', 'r.uuid'])
      .where(sql<boolean>`r.n % ${sql.lit(state.step)} = 0`)
      .orderBy('r.n')
      .execute();
    state.rungs.push(...rungs);
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
/** The query's key in the caches (a search's case does not matter). */
const keyOf = (query: LearnerPageQuery) =>
  JSON.stringify([
    query.companyUuid,
    query.archived,
    query.listUuid ?? null,
    query.search?.toLowerCase() ?? null,
  ]);

const stateAt = (db: Db, query: LearnerPageQuery, version: number): Promise<QueryState> =>
  cacheOf(
    db,
    'learner-pages',
    () =>
      new VersionedCache<QueryState>(
        (state) => (state.uuids?.length ?? 0) + Math.ceil(state.total / state.step),
        KEPT_UUIDS,
      ),
  ).get(keyOf(query), version, () => computeState(db, query, version));

/** The query's state at the company's current version (computed once per version). */
const stateOf = async (db: Db, query: LearnerPageQuery): Promise<QueryState> =>
  stateAt(db, query, await learnersVersion(db, query.companyUuid));

/** The company's (non-)archived learners: a count remembered per version. */
export const learnersTotal = async (
  db: Db,
  companyUuid: string,
  archived: boolean,
): Promise<number> =>
  (await stateOf(db, { companyUuid, archived, page: { page: 1, perPage: 1 } })).total;

/** A page's learners and each one's lists: what only a write to learners or lists changes. */
export type LearnerPageRows = {
  rows: LearnersTable[];
  lists: Map<string, TLearnerListRef[]>;
};

/**
 * Pages remembered, in learners (a row and its lists are about 1 KB): the pages asked again and
 * again — page 1, a search's first page — skip the queries of their keys, rows and lists.
 */
const KEPT_PAGE_ROWS = 5000;

/** The rows of the page, in order. */
const readPage = async (
  db: Db,
  query: LearnerPageQuery,
  state: QueryState,
): Promise<LearnersTable[]> => {
  const { perPage } = query.page;
  const offset = offsetOf(query.page);
  if (offset >= state.total) return [];
  if (state.uuids) return rowsInOrder(db, state.uuids.slice(offset, offset + perPage));
  const rung = Math.floor(offset / state.step);
  if (state.rungs.length < rung) await walkRungs(db, query, state, rung);
  // The list ended before the rung (it shrank while this version was read): no such page.
  if (state.rungs.length < rung) return [];
  // Keys first (the index alone: Postgres would read every skipped learner's row), then rows.
  const keys = await inOrder(matching(db, query), state.rungs[rung - 1])
    .select('learners.uuid')
    .limit(perPage)
    .offset(offset - rung * state.step)
    .execute();
  return rowsInOrder(
    db,
    keys.map((key) => key.uuid),
  );
};

/**
 * A page of learners, newest first (then by uuid, descending), with each one's lists, and how
 * many match in all; remembered per version of the company's learners.
 */
export const learnerPage = async (
  db: Db,
  query: LearnerPageQuery,
): Promise<LearnerPageRows & { total: number }> => {
  const version = await learnersVersion(db, query.companyUuid);
  const state = await stateAt(db, query, version);
  const pages = cacheOf(
    db,
    'learner-page-rows',
    () => new VersionedCache<LearnerPageRows>((page) => page.rows.length, KEPT_PAGE_ROWS),
  );
  const key = JSON.stringify([keyOf(query), query.page.page, query.page.perPage]);
  const page = await pages.get(key, version, async () => {
    const rows = await readPage(db, query, state);
    return {
      rows,
      lists: await listsOfLearners(
        db,
        rows.map((row) => row.uuid),
      ),
    };
  });
  return { ...page, total: state.total };
};
