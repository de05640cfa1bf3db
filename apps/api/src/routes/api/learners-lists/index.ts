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
import type { TFieldErrors } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  assertNameFree,
  deleteList,
  findList,
  insertList,
  renameList,
  selectLists,
} from '../../../learners/learners-lists-repository.ts';
import { knownLearnerUuids } from '../../../learners/learners-repository.ts';
import { validationError } from '../../../lib/app-error.ts';
import { selectInChunks } from '../../../lib/chunks.ts';
import { isoNow } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/ids.ts';
import { authOf } from '../../../plugins/auth.ts';

const tags = ['learners-lists'];
const uuidParams = z.object({ uuid: ZUuidSchema });

const companyOf = (request: FastifyRequest): string => authOf(request).user.company_uuid;

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
      const known = new Set(
        await selectInChunks(unique, (part) => knownLearnerUuids(app.db, companyUuid, part)),
      );
      const errors: TFieldErrors = {};
      learners.forEach((uuid, index) => {
        if (!known.has(uuid)) errors[`learners.${index}`] = [MESSAGES.learnerUnknown];
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);

      const now = isoNow(app.clock);
      const uuid = newUuid();
      await insertList(
        app.db,
        { uuid, company_uuid: companyUuid, name, created_at: now, updated_at: now },
        unique,
      );
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
      await renameList(app.db, list, request.body.name, isoNow(app.clock));
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
      await deleteList(app.db, list);
      return { data: { deleted: list.uuid } };
    },
  );
};
