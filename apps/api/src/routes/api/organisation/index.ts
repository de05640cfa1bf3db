import {
  LOCALES,
  ZCompanyClassroomsParamsSchema,
  ZCompanyResponseSchema,
  ZListChannelsResponseSchema,
  ZListClassroomsResponseSchema,
  ZListLanguagesResponseSchema,
  ZListTranslationsQuerySchema,
  ZListTranslationsResponseSchema,
} from '@ccp/schemas';
import type { TChannel, TLanguage, TTranslation } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { textsUnder } from '../../../i18n/texts.ts';
import { notFound } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';

// The caller's company, its classrooms, and the reference data every screen needs.
export const organisationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/company',
    {
      schema: {
        tags: ['organisation'],
        summary: "The caller's company",
        response: { 200: ZCompanyResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const company = await app.db
        .selectFrom('companies')
        .select(['uuid', 'name'])
        .where('uuid', '=', user.company_uuid)
        .executeTakeFirst();
      if (!company) throw notFound();
      return { data: company };
    },
  );

  app.get(
    '/api/v1/companies/:companyUuid/classrooms',
    {
      schema: {
        tags: ['organisation'],
        summary: "The company's classrooms; the first one is the current classroom",
        params: ZCompanyClassroomsParamsSchema,
        response: { 200: ZListClassroomsResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      // Another company's uuid answers as if it did not exist.
      if (request.params.companyUuid !== user.company_uuid) throw notFound();
      const classrooms = await app.db
        .selectFrom('classrooms')
        .select(['uuid', 'name'])
        .where('company_uuid', '=', user.company_uuid)
        .orderBy('position')
        .orderBy('name')
        .orderBy('uuid')
        .execute();
      return { data: classrooms };
    },
  );

  app.get(
    '/api/v1/channels',
    {
      schema: {
        tags: ['reference data'],
        summary: 'Delivery channels and the contact each reaches a learner by',
        response: { 200: ZListChannelsResponseSchema },
      },
    },
    async () => {
      const channels = await app.db
        .selectFrom('channels')
        .select(['uuid', 'key', 'name', 'contact'])
        .orderBy('position')
        .orderBy('key')
        .execute();
      return { data: channels as TChannel[] };
    },
  );

  app.get(
    '/api/v1/languages',
    {
      schema: {
        tags: ['reference data'],
        summary: 'Course languages',
        response: { 200: ZListLanguagesResponseSchema },
      },
    },
    async () => {
      const languages = await app.db
        .selectFrom('languages')
        .select(['uuid', 'name', 'short_name'])
        .orderBy('position')
        .orderBy('short_name')
        .execute();
      return { data: languages as TLanguage[] };
    },
  );

  app.get(
    '/api/v1/translations',
    {
      schema: {
        tags: ['reference data'],
        summary: 'Server-side texts (upgrade modal, plans), for one locale or all',
        querystring: ZListTranslationsQuerySchema,
        response: { 200: ZListTranslationsResponseSchema },
      },
    },
    async (request) => {
      const { locale } = request.query;
      const data: TTranslation[] = [...LOCALES]
        .filter((lang) => !locale || lang === locale)
        .sort()
        .flatMap((lang) =>
          [...textsUnder(lang, 'server.translations')]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([key, value]) => ({ locale: lang, key, value })),
        );
      return { data };
    },
  );
};
