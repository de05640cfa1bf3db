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
  fillMessage,
} from '@ccp/schemas';
import type { TFieldErrors, TLearnerInput } from '@ccp/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { Db } from '../../../db/index.ts';
import {
  learnersJson,
  reachabilityOf,
  serializeLearner,
} from '../../../learners/learner-serializer.ts';
import { learnerPage } from '../../../learners/learner-page.ts';
import {
  findList,
  knownListUuids,
  syncLearnerLists,
} from '../../../learners/learners-lists-repository.ts';
import {
  assertEmailFree,
  deleteLearner,
  findLearner,
  insertLearner,
  activeCourseOf,
  isUniqueViolation,
  learnerRow,
  setLearnerArchived,
  updateLearnerDetails,
} from '../../../learners/learners-repository.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { isoNow } from '../../../lib/clock.ts';
import { JSON_CONTENT_TYPE, pageRequest, paginatedJson } from '../../../lib/pagination.ts';
import { withCompanyLock } from '../../../lib/company-lock.ts';
import { assertWithinPlan } from '../../../lib/plan-limits.ts';
import { usageOf } from '../../../lib/usage.ts';
import { authOf } from '../../../plugins/auth.ts';

const tags = ['learners'];
const uuidParams = z.object({ uuid: ZUuidSchema });
const listParams = z.object({ listUuid: ZUuidSchema });

const companyOf = (request: FastifyRequest): string => authOf(request).user.company_uuid;

export const learnersRoutes: FastifyPluginAsyncZod = async (app) => {
  /** 402 when one more learner would pass the plan; run under the company's lock. */
  const assertLearnerSeat = async (trx: Db, companyUuid: string) => {
    const current = await usageOf(trx, companyUuid, 'learners', app.clock.now());
    await assertWithinPlan(trx, companyUuid, 'learners', current + 1);
  };

  const createLearner = async (companyUuid: string, body: TLearnerInput, listUuid?: string) => {
    if (listUuid) await findList(app.db, companyUuid, listUuid);
    await assertEmailFree(app.db, companyUuid, body.email);
    // `channel_name` is accepted and ignored.
    const row = learnerRow(companyUuid, body, { created_at: isoNow(app.clock) });
    try {
      await withCompanyLock(app, companyUuid, async (trx) => {
        await assertLearnerSeat(trx, companyUuid);
        await insertLearner(trx, row, listUuid);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw validationError({ email: [MESSAGES.emailTaken] });
      throw error;
    }
    return { data: await serializeLearner(app.db, row) };
  };

  /**
   * A page of learners as the JSON text of ZListLearnersResponseSchema: the page's stored fields
   * are written once per version (learnersJson), so a page asked again writes only its courses
   * and figures. Sent as it is: Fastify sends a string with a JSON content type unmodified,
   * without the route's serializer (its Reply reference, "Strings").
   */
  const listLearners = async (
    request: FastifyRequest,
    reply: FastifyReply,
    companyUuid: string,
    query: z.output<typeof ZListLearnersQuerySchema>,
    listUuid?: string,
  ) => {
    if (listUuid) await findList(app.db, companyUuid, listUuid);
    const page = pageRequest(query);
    const { rows, lists, total } = await learnerPage(app.db, {
      companyUuid,
      archived: query.archived,
      listUuid,
      search: query.search?.trim() || undefined,
      page,
    });
    const learners = await learnersJson(app.db, rows, lists);
    return reply
      .type(JSON_CONTENT_TYPE)
      .send(paginatedJson(learners, rows.length, total, page, request.url));
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
    async (request, reply) => listLearners(request, reply, companyOf(request), request.query),
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
    async (request, reply) =>
      listLearners(request, reply, companyOf(request), request.query, request.params.listUuid),
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
      let changes;
      try {
        changes = await updateLearnerDetails(app.db, existing, request.body, isoNow(app.clock));
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
      const knownUuids = await knownListUuids(app.db, companyUuid, wanted);
      const errors: TFieldErrors = {};
      request.body.lists.forEach((uuid, index) => {
        if (!knownUuids.has(uuid)) errors[`lists.${index}`] = [MESSAGES.learnersListUnknown];
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);
      await syncLearnerLists(app.db, learner, wanted);
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
      const course = await activeCourseOf(app.db, row.uuid);
      if (course !== null) {
        throw new AppError(
          'VALIDATION_FAILED',
          fillMessage(MESSAGES.learnerActiveInCourse, { course }),
        );
      }
      const changes = await setLearnerArchived(app.db, row, true, isoNow(app.clock));
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
      const changes = await withCompanyLock(app, companyUuid, async (trx) => {
        await assertLearnerSeat(trx, companyUuid);
        return setLearnerArchived(trx, row, false, isoNow(app.clock));
      });
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
      await deleteLearner(app.db, row);
      return { data: { deleted: row.uuid } };
    },
  );
};
