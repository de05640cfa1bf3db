import { MESSAGES } from '@ccp/schemas';
import type { TLearnersList } from '@ccp/schemas';
import { CompiledQuery, sql } from 'kysely';
import type { Kysely } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { Database, LearnersListsTable, LearnersTable } from '../db/types.ts';
import { notFound, validationError } from '../lib/app-error.ts';
import { chunks, selectInChunks } from '../lib/chunks.ts';
import { cacheOf } from './learner-page-cache.ts';
import { bumpLearnersVersion, learnersVersion } from './learners-version.ts';

// The persistence home of learners lists and their members (`learners_lists`,
// `learners_list_members`): the list routes, the learner routes' list sync, the import job and
// the seed go through here. Every query is scoped to a company.

type Executor = Kysely<Database>;

/** A learners list of the company; 404 otherwise. */
export const findList = async (
  db: Executor,
  companyUuid: string,
  uuid: string,
): Promise<LearnersListsTable> => {
  const row = await db
    .selectFrom('learners_lists')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
};

/** Whether the company has the list (the import checks its target without a 404). */
export const listExists = async (db: Executor, companyUuid: string, uuid: string) =>
  (await db
    .selectFrom('learners_lists')
    .select('uuid')
    .where('uuid', '=', uuid)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst()) !== undefined;

/** A list's members: not archived, and archived. */
export type ListMemberCount = { live: number; archived: number };

/**
 * Each list's members by list uuid: its members (a count of the membership key) and its archived
 * ones (read from the company's archived learners, few as a rule), remembered per version of the
 * company's learners. Counting each member's row instead took 1.9 s for a 100,000-member list.
 */
export const listMemberCounts = async (
  db: Db,
  companyUuid: string,
): Promise<Map<string, ListMemberCount>> => {
  const version = await learnersVersion(db, companyUuid);
  return cacheOf<Map<string, ListMemberCount>>(db, 'list-member-counts').get(
    companyUuid,
    version,
    async () => {
      const [members, archived] = await Promise.all([
        db
          .selectFrom('learners_list_members')
          .where('list_uuid', 'in', (eb) =>
            eb.selectFrom('learners_lists').select('uuid').where('company_uuid', '=', companyUuid),
          )
          .groupBy('list_uuid')
          .select(['list_uuid', (eb) => eb.fn.countAll().as('count')])
          .execute(),
        db
          .selectFrom('learners')
          // CROSS JOIN: SQLite keeps this order (the archived learners first, then their lists).
          .crossJoin('learners_list_members as m')
          .whereRef('m.learner_uuid', '=', 'learners.uuid')
          .where('learners.company_uuid', '=', companyUuid)
          .where('learners.deleted_at', 'is not', null)
          .groupBy('m.list_uuid')
          .select(['m.list_uuid', (eb) => eb.fn.countAll().as('count')])
          .execute(),
      ]);
      const archivedOf = new Map(archived.map((row) => [row.list_uuid, Number(row.count)]));
      return new Map(
        members.map((row) => {
          const gone = archivedOf.get(row.list_uuid) ?? 0;
          return [row.list_uuid, { live: Number(row.count) - gone, archived: gone }];
        }),
      );
    },
  );
};

/** The company's lists (or one of them) with their non-archived member counts, by name. */
export const selectLists = async (
  db: Db,
  companyUuid: string,
  uuid?: string,
): Promise<TLearnersList[]> => {
  let query = db
    .selectFrom('learners_lists as l')
    .where('l.company_uuid', '=', companyUuid)
    .select(['l.uuid', 'l.name', 'l.created_at', 'l.updated_at'])
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.uuid');
  if (uuid) query = query.where('l.uuid', '=', uuid);
  const [rows, counts] = await Promise.all([query.execute(), listMemberCounts(db, companyUuid)]);
  return rows.map((row) => ({ ...row, learners_count: counts.get(row.uuid)?.live ?? 0 }));
};

/** List names are unique in a company, whatever their case. */
export const assertNameFree = async (
  db: Db,
  companyUuid: string,
  name: string,
  exceptUuid?: string,
) => {
  let query = db
    .selectFrom('learners_lists')
    .select('uuid')
    .where('company_uuid', '=', companyUuid)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  if (exceptUuid) query = query.where('uuid', '!=', exceptUuid);
  if (await query.executeTakeFirst()) throw validationError({ name: [MESSAGES.nameTaken] });
};

/** The uuids among `uuids` that are lists of the company. */
export const knownListUuids = async (
  db: Db,
  companyUuid: string,
  uuids: readonly string[],
): Promise<Set<string>> => {
  const rows = await selectInChunks(uuids, (part) =>
    db
      .selectFrom('learners_lists')
      .select('uuid')
      .where('company_uuid', '=', companyUuid)
      .where('uuid', 'in', part)
      .execute(),
  );
  return new Set(rows.map((row) => row.uuid));
};

/** Creates a list with its first members, in one transaction. */
export const insertList = async (
  db: Db,
  list: LearnersListsTable,
  learnerUuids: readonly string[],
): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('learners_lists').values(list).execute();
    await addListMembers(trx, list.uuid, learnerUuids);
    await bumpLearnersVersion(trx, [list.company_uuid]);
  });
};

/** Renames a list (learners' pages show its name: the company's learners version moves). */
export const renameList = async (
  db: Db,
  list: Pick<LearnersListsTable, 'uuid' | 'company_uuid'>,
  name: string,
  now: string,
) => {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('learners_lists')
      .set({ name, updated_at: now })
      .where('uuid', '=', list.uuid)
      .execute();
    await bumpLearnersVersion(trx, [list.company_uuid]);
  });
};

/** Deletes a list; its learners stay, and courses that targeted it stop targeting it. */
export const deleteList = async (
  db: Db,
  list: Pick<LearnersListsTable, 'uuid' | 'company_uuid'>,
): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('learners_list_members').where('list_uuid', '=', list.uuid).execute();
    await trx.deleteFrom('course_learners_lists').where('list_uuid', '=', list.uuid).execute();
    await trx.deleteFrom('learners_lists').where('uuid', '=', list.uuid).execute();
    await bumpLearnersVersion(trx, [list.company_uuid]);
  });
};

/** Adds learners to a list (those already in it stay), a chunk per statement. */
export const addListMembers = async (
  db: Executor,
  listUuid: string,
  learnerUuids: Iterable<string>,
): Promise<void> => {
  for (const part of chunks([...learnerUuids])) {
    await db
      .insertInto('learners_list_members')
      .values(part.map((learner_uuid) => ({ list_uuid: listUuid, learner_uuid })))
      .onConflict((conflict) => conflict.columns(['list_uuid', 'learner_uuid']).doNothing())
      .execute();
  }
};

// Postgres: the import's memberships in one statement per batch. Learners the batch creates
// cannot be members yet, so they join with a plain INSERT; matched learners may already be.
const POSTGRES_NEW_MEMBERS =
  'insert into learners_list_members (list_uuid, learner_uuid) select $1, unnest($2::text[])';
const POSTGRES_MEMBERS = `${POSTGRES_NEW_MEMBERS} on conflict do nothing`;

/**
 * The import's memberships: `fresh` learners (created by this batch, never members yet) and
 * matched `learners` (who may be members already).
 */
export const addImportedMembers = async (
  db: Executor,
  dialect: Dialect,
  listUuid: string,
  { fresh, learners }: { fresh: readonly string[]; learners: ReadonlySet<string> },
): Promise<void> => {
  if (dialect === 'postgres') {
    if (fresh.length > 0) {
      await db.executeQuery(CompiledQuery.raw(POSTGRES_NEW_MEMBERS, [listUuid, fresh]));
    }
    if (learners.size > 0) {
      await db.executeQuery(CompiledQuery.raw(POSTGRES_MEMBERS, [listUuid, [...learners]]));
    }
    return;
  }
  const all = new Set([...fresh, ...learners]);
  if (all.size === 0) return;
  await db
    .insertInto('learners_list_members')
    .values([...all].map((learner_uuid) => ({ list_uuid: listUuid, learner_uuid })))
    .onConflict((conflict) => conflict.columns(['list_uuid', 'learner_uuid']).doNothing())
    .execute();
};

/** Makes `wanted` exactly the lists the learner belongs to, in one transaction. */
export const syncLearnerLists = async (
  db: Db,
  learner: Pick<LearnersTable, 'uuid' | 'company_uuid'>,
  wanted: readonly string[],
): Promise<void> => {
  const learnerUuid = learner.uuid;
  await db.transaction().execute(async (trx) => {
    const present = await trx
      .selectFrom('learners_list_members')
      .select('list_uuid')
      .where('learner_uuid', '=', learnerUuid)
      .execute();
    const wantedSet = new Set(wanted);
    const presentSet = new Set(present.map((row) => row.list_uuid));
    const removed = [...presentSet].filter((uuid) => !wantedSet.has(uuid));
    for (const part of chunks(removed)) {
      await trx
        .deleteFrom('learners_list_members')
        .where('learner_uuid', '=', learnerUuid)
        .where('list_uuid', 'in', part)
        .execute();
    }
    const missing = wanted.filter((uuid) => !presentSet.has(uuid));
    for (const part of chunks(missing)) {
      await trx
        .insertInto('learners_list_members')
        .values(part.map((list_uuid) => ({ list_uuid, learner_uuid: learnerUuid })))
        .execute();
    }
    await bumpLearnersVersion(trx, [learner.company_uuid]);
  });
};

/** Inserts list rows as they are (the seed). */
export const insertListRows = async (
  db: Executor,
  lists: readonly LearnersListsTable[],
): Promise<void> => {
  for (const part of chunks(lists, 500)) {
    await db.insertInto('learners_lists').values(part).execute();
  }
  await bumpLearnersVersion(
    db,
    lists.map((list) => list.company_uuid),
  );
};

/** Inserts membership rows as they are (the seed). */
export const insertMemberRows = async (
  db: Executor,
  members: readonly { list_uuid: string; learner_uuid: string }[],
): Promise<void> => {
  for (const part of chunks(members)) {
    await db.insertInto('learners_list_members').values(part).execute();
  }
  const lists = await selectInChunks([...new Set(members.map((row) => row.list_uuid))], (part) =>
    db.selectFrom('learners_lists').select('company_uuid').where('uuid', 'in', part).execute(),
  );
  await bumpLearnersVersion(
    db,
    lists.map((list) => list.company_uuid),
  );
};
