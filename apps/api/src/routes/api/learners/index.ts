import {
  MAX_IDS_PER_REQUEST,
  MESSAGES,
  ZCreateLearnerRequestSchema,
  ZDeletedLearnerSchema,
  ZLearnerResponseSchema,
  ZListLearnersQuerySchema,
  ZListLearnersResponseSchema,
  ZReachabilitySchema,
  ZSyncLearnerListsRequestSchema,
  ZSyncLearnerListsResultSchema,
  ZUpdateLearnerRequestSchema,
  ZUuidSchema,
  dataEnvelope,
} from '@ccp/schemas';
import type { TFieldErrors, TLearnerInput } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { authOf } from '../../../plugins/auth.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { chunks, selectInChunks } from '../../../lib/chunks.ts';
import { isoNow } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/ids.ts';
import { offsetOf, pageRequest, paginated } from '../../../lib/pagination.ts';
import { assertWithinPlan } from '../../../lib/plan-limits.ts';
import {
  assertEmailFree,
  countActiveLearners,
  findLearner,
  findList,
  isActiveInCourse,
  isUniqueViolation,
  learnerSearch,
  reachabilityOf,
  serializeLearner,
  serializeLearners,
} from './learner-repository.ts';

const tags = ['learners'];
const uuidParams = z.object({ uuid: ZUuidSchema });
const listParams = z.object({ listUuid: ZUuidSchema });

/** The columns a create or update body sets; `channel_name` is accepted and ignored. */
const columnsOf = (body: TLearnerInput) => ({
  first_name: body.first_name,
  last_name: body.last_name,
  email: body.email,
  phone: body.phone,
  locale: body.locale,
  channels: JSON.stringify(body.channels),
});

const companyOf = (request: FastifyRequest): string => authOf(request).user.company_uuid;

export const learnersRoutes: FastifyPluginAsyncZod = async (app) => {
  const createLearner = async (companyUuid: string, body: TLearnerInput, listUuid?: string) => {
    if (listUuid) await findList(app.db, companyUuid, listUuid);
    await assertEmailFree(app.db, companyUuid, body.email);
    const current = await countActiveLearners(app.db, companyUuid);
    await assertWithinPlan(app.db, companyUuid, 'learners', current + 1);
    const now = isoNow(app.clock);
    const row = {
      uuid: newUuid(),
      company_uuid: companyUuid,
      ...columnsOf(body),
      active: 1,
      reachability: 'unknown',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    try {
      await app.db.transaction().execute(async (trx) => {
        await trx.insertInto('learners').values(row).execute();
        if (listUuid) {
          await trx
            .insertInto('learners_list_members')
            .values({ list_uuid: listUuid, learner_uuid: row.uuid })
            .execute();
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw validationError({ email: [MESSAGES.emailTaken] });
      throw error;
    }
    return { data: await serializeLearner(app.db, row) };
  };

  const listLearners = async (
    request: FastifyRequest,
    companyUuid: string,
    query: z.output<typeof ZListLearnersQuerySchema>,
    listUuid?: string,
  ) => {
    if (listUuid) await findList(app.db, companyUuid, listUuid);
    const page = pageRequest(query);
    const search = query.search?.trim();
    let base = app.db
      .selectFrom('learners')
      .where('learners.company_uuid', '=', companyUuid)
      .where('learners.deleted_at', query.archived ? 'is not' : 'is', null);
    if (listUuid) {
      base = base.where('learners.uuid', 'in', (eb) =>
        eb
          .selectFrom('learners_list_members')
          .select('learner_uuid')
          .where('list_uuid', '=', listUuid),
      );
    }
    if (search) base = base.where(learnerSearch(search));
    const [countRow, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
      base
        .selectAll('learners')
        .orderBy('learners.created_at', 'desc')
        .orderBy('learners.uuid')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
    ]);
    return paginated(
      await serializeLearners(app.db, rows),
      Number(countRow.count),
      page,
      request.url,
    );
  };

  app.post(
    '/api/v1/learners',
    {
      schema: {
        tags,
        summary: 'Create a learner',
        body: ZCreateLearnerRequestSchema,
        response: { 201: ZLearnerResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await createLearner(companyOf(request), request.body);
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/api/v1/learners/learners-lists/:listUuid',
    {
      schema: {
        tags,
        summary: 'Create a learner in a learners list',
        params: listParams,
        body: ZCreateLearnerRequestSchema,
        response: { 201: ZLearnerResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await createLearner(companyOf(request), request.body, request.params.listUuid);
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/v1/learners',
    {
      schema: {
        tags,
        summary: 'Learners, newest first, paginated; archived ones with archived=true',
        querystring: ZListLearnersQuerySchema,
        response: { 200: ZListLearnersResponseSchema },
      },
    },
    async (request) => listLearners(request, companyOf(request), request.query),
  );

  app.get(
    '/api/v1/learners/learners-lists/:listUuid',
    {
      schema: {
        tags,
        summary: 'Learners of one learners list, newest first, paginated',
        params: listParams,
        querystring: ZListLearnersQuerySchema,
        response: { 200: ZListLearnersResponseSchema },
      },
    },
    async (request) =>
      listLearners(request, companyOf(request), request.query, request.params.listUuid),
  );

  app.get(
    '/api/v1/learners/:uuid',
    {
      schema: {
        tags,
        summary: 'One learner (archived ones too)',
        params: uuidParams,
        response: { 200: ZLearnerResponseSchema },
      },
    },
    async (request) => {
      const row = await findLearner(app.db, companyOf(request), request.params.uuid);
      return { data: await serializeLearner(app.db, row) };
    },
  );

  app.get(
    '/api/v1/learners/:uuid/reachability',
    {
      schema: {
        tags,
        summary: 'Whether each of the learner’s channels can reach the learner',
        params: uuidParams,
        response: { 200: dataEnvelope(ZReachabilitySchema) },
      },
    },
    async (request) => {
      const row = await findLearner(app.db, companyOf(request), request.params.uuid);
      return { data: await reachabilityOf(app.db, row) };
    },
  );

  app.put(
    '/api/v1/learners/:uuid',
    {
      schema: {
        tags,
        summary: 'Replace a learner’s details',
        params: uuidParams,
        body: ZUpdateLearnerRequestSchema,
        response: { 200: ZLearnerResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const existing = await findLearner(app.db, companyUuid, request.params.uuid);
      await assertEmailFree(app.db, companyUuid, request.body.email, existing.uuid);
      const changes = { ...columnsOf(request.body), updated_at: isoNow(app.clock) };
      try {
        await app.db
          .updateTable('learners')
          .set(changes)
          .where('uuid', '=', existing.uuid)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw validationError({ email: [MESSAGES.emailTaken] });
        throw error;
      }
      return { data: await serializeLearner(app.db, { ...existing, ...changes }) };
    },
  );

  app.patch(
    '/api/v1/learners/:uuid/learners-lists/sync',
    {
      schema: {
        tags,
        summary: 'Set exactly the learners lists the learner belongs to',
        description: `\`lists\`: at most ${MAX_IDS_PER_REQUEST.toLocaleString('en')} uuids; more answer 422.`,
        params: uuidParams,
        body: ZSyncLearnerListsRequestSchema,
        response: { 200: dataEnvelope(ZSyncLearnerListsResultSchema) },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const learner = await findLearner(app.db, companyUuid, request.params.uuid);
      const wanted = [...new Set(request.body.lists)];
      const known = await selectInChunks(wanted, (part) =>
        app.db
          .selectFrom('learners_lists')
          .select('uuid')
          .where('company_uuid', '=', companyUuid)
          .where('uuid', 'in', part)
          .execute(),
      );
      const knownUuids = new Set(known.map((list) => list.uuid));
      const errors: TFieldErrors = {};
      request.body.lists.forEach((uuid, index) => {
        if (!knownUuids.has(uuid)) errors[`lists.${index}`] = [MESSAGES.learnersListUnknown];
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);

      await app.db.transaction().execute(async (trx) => {
        const present = await trx
          .selectFrom('learners_list_members')
          .select('list_uuid')
          .where('learner_uuid', '=', learner.uuid)
          .execute();
        const wantedSet = new Set(wanted);
        const presentSet = new Set(present.map((row) => row.list_uuid));
        const removed = [...presentSet].filter((uuid) => !wantedSet.has(uuid));
        for (const part of chunks(removed)) {
          await trx
            .deleteFrom('learners_list_members')
            .where('learner_uuid', '=', learner.uuid)
            .where('list_uuid', 'in', part)
            .execute();
        }
        const missing = wanted.filter((uuid) => !presentSet.has(uuid));
        for (const part of chunks(missing)) {
          await trx
            .insertInto('learners_list_members')
            .values(part.map((list_uuid) => ({ list_uuid, learner_uuid: learner.uuid })))
            .execute();
        }
      });
      const { learners_lists } = await serializeLearner(app.db, learner);
      return { data: { result: true, learners_lists } };
    },
  );

  app.delete(
    '/api/v1/learners/:uuid/soft',
    {
      schema: {
        tags,
        summary: 'Archive a learner (refused while the learner is active in a course)',
        params: uuidParams,
        response: { 200: ZLearnerResponseSchema },
      },
    },
    async (request) => {
      const row = await findLearner(app.db, companyOf(request), request.params.uuid);
      if (row.deleted_at !== null) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.learnerAlreadyArchived);
      }
      if (await isActiveInCourse(app.db, row.uuid)) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.learnerActiveInCourse);
      }
      const now = isoNow(app.clock);
      const changes = { deleted_at: now, active: 0, updated_at: now };
      await app.db.updateTable('learners').set(changes).where('uuid', '=', row.uuid).execute();
      return { data: await serializeLearner(app.db, { ...row, ...changes }) };
    },
  );

  app.post(
    '/api/v1/learners/:uuid/restore',
    {
      schema: {
        tags,
        summary: 'Restore an archived learner (counts against the learners plan limit)',
        params: uuidParams,
        response: { 200: ZLearnerResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const row = await findLearner(app.db, companyUuid, request.params.uuid);
      if (row.deleted_at === null) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.learnerNotArchived);
      }
      const current = await countActiveLearners(app.db, companyUuid);
      await assertWithinPlan(app.db, companyUuid, 'learners', current + 1);
      const changes = { deleted_at: null, active: 1, updated_at: isoNow(app.clock) };
      await app.db.updateTable('learners').set(changes).where('uuid', '=', row.uuid).execute();
      return { data: await serializeLearner(app.db, { ...row, ...changes }) };
    },
  );

  app.delete(
    '/api/v1/learners/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a learner permanently (archived or not)',
        params: uuidParams,
        response: { 200: dataEnvelope(ZDeletedLearnerSchema) },
      },
    },
    async (request) => {
      const row = await findLearner(app.db, companyOf(request), request.params.uuid);
      await app.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('learners_list_members')
          .where('learner_uuid', '=', row.uuid)
          .execute();
        await trx.deleteFrom('learners').where('uuid', '=', row.uuid).execute();
      });
      return { data: { deleted: row.uuid } };
    },
  );
};
