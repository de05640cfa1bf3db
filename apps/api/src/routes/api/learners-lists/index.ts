import {
  MAX_IDS_PER_REQUEST,
  MESSAGES,
  ZCreateLearnersListRequestSchema,
  ZDeletedLearnersListSchema,
  ZLearnersListResponseSchema,
  ZListLearnersListsResponseSchema,
  ZUpdateLearnersListRequestSchema,
  ZUuidSchema,
  dataEnvelope,
} from '@ccp/schemas';
import type { TFieldErrors, TLearnersList } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';

import type { Db } from '../../../db/index.ts';
import { validationError } from '../../../lib/app-error.ts';
import { chunks, selectInChunks } from '../../../lib/chunks.ts';
import { isoNow } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/ids.ts';
import { authOf } from '../../../plugins/auth.ts';
import { findList } from '../learners/learner-repository.ts';

const tags = ['learners-lists'];
const uuidParams = z.object({ uuid: ZUuidSchema });

const companyOf = (request: FastifyRequest): string => authOf(request).user.company_uuid;

/** The company's lists (or one of them) with their non-archived member counts, by name. */
const selectLists = async (
  db: Db,
  companyUuid: string,
  uuid?: string,
): Promise<TLearnersList[]> => {
  let query = db
    .selectFrom('learners_lists as l')
    .where('l.company_uuid', '=', companyUuid)
    .select(['l.uuid', 'l.name', 'l.created_at', 'l.updated_at'])
    .select((eb) =>
      eb
        .selectFrom('learners_list_members as m')
        .innerJoin('learners', 'learners.uuid', 'm.learner_uuid')
        .whereRef('m.list_uuid', '=', 'l.uuid')
        .where('learners.deleted_at', 'is', null)
        .select((inner) => inner.fn.countAll().as('count'))
        .as('learners_count'),
    )
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.uuid');
  if (uuid) query = query.where('l.uuid', '=', uuid);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, learners_count: Number(row.learners_count ?? 0) }));
};

/** List names are unique in a company, whatever their case. */
const assertNameFree = async (db: Db, companyUuid: string, name: string, exceptUuid?: string) => {
  let query = db
    .selectFrom('learners_lists')
    .select('uuid')
    .where('company_uuid', '=', companyUuid)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  if (exceptUuid) query = query.where('uuid', '!=', exceptUuid);
  if (await query.executeTakeFirst()) throw validationError({ name: [MESSAGES.nameTaken] });
};

export const learnersListsRoutes: FastifyPluginAsyncZod = async (app) => {
  const listResponse = async (companyUuid: string, uuid: string) => {
    const [list] = await selectLists(app.db, companyUuid, uuid);
    if (!list) throw new Error(`learners list ${uuid} vanished`);
    return { data: list };
  };

  app.get(
    '/api/v1/learners-lists',
    {
      schema: {
        tags,
        summary: 'The company’s learners lists, by name',
        response: { 200: ZListLearnersListsResponseSchema },
      },
    },
    async (request) => ({ data: await selectLists(app.db, companyOf(request)) }),
  );

  app.post(
    '/api/v1/learners-lists',
    {
      schema: {
        tags,
        summary: 'Create a learners list, optionally with learners',
        description: `\`learners\`: at most ${MAX_IDS_PER_REQUEST.toLocaleString('en')} uuids; more answer 422.`,
        body: ZCreateLearnersListRequestSchema,
        response: { 201: ZLearnersListResponseSchema },
      },
    },
    async (request, reply) => {
      const companyUuid = companyOf(request);
      const { name } = request.body;
      const learners = request.body.learners ?? [];
      await assertNameFree(app.db, companyUuid, name);
      const unique = [...new Set(learners)];
      const found = await selectInChunks(unique, (part) =>
        app.db
          .selectFrom('learners')
          .select('uuid')
          .where('company_uuid', '=', companyUuid)
          .where('uuid', 'in', part)
          .execute(),
      );
      const known = new Set(found.map((row) => row.uuid));
      const errors: TFieldErrors = {};
      learners.forEach((uuid, index) => {
        if (!known.has(uuid)) errors[`learners.${index}`] = [MESSAGES.learnerUnknown];
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);

      const now = isoNow(app.clock);
      const uuid = newUuid();
      await app.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('learners_lists')
          .values({ uuid, company_uuid: companyUuid, name, created_at: now, updated_at: now })
          .execute();
        for (const part of chunks(unique)) {
          await trx
            .insertInto('learners_list_members')
            .values(part.map((learner_uuid) => ({ list_uuid: uuid, learner_uuid })))
            .execute();
        }
      });
      return reply.code(201).send(await listResponse(companyUuid, uuid));
    },
  );

  app.put(
    '/api/v1/learners-lists/:uuid',
    {
      schema: {
        tags,
        summary: 'Rename a learners list',
        params: uuidParams,
        body: ZUpdateLearnersListRequestSchema,
        response: { 200: ZLearnersListResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const list = await findList(app.db, companyUuid, request.params.uuid);
      await assertNameFree(app.db, companyUuid, request.body.name, list.uuid);
      await app.db
        .updateTable('learners_lists')
        .set({ name: request.body.name, updated_at: isoNow(app.clock) })
        .where('uuid', '=', list.uuid)
        .execute();
      return listResponse(companyUuid, list.uuid);
    },
  );

  app.delete(
    '/api/v1/learners-lists/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a learners list; its learners stay',
        params: uuidParams,
        response: { 200: dataEnvelope(ZDeletedLearnersListSchema) },
      },
    },
    async (request) => {
      const list = await findList(app.db, companyOf(request), request.params.uuid);
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('learners_list_members').where('list_uuid', '=', list.uuid).execute();
        // Courses that targeted the list stop targeting it.
        await trx.deleteFrom('course_learners_lists').where('list_uuid', '=', list.uuid).execute();
        await trx.deleteFrom('learners_lists').where('uuid', '=', list.uuid).execute();
      });
      return { data: { deleted: list.uuid } };
    },
  );
};
