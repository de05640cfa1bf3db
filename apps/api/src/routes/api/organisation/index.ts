import {
  LOCALES,
  MESSAGES,
  ZCompanyClassroomsParamsSchema,
  ZDeliveryHoursResponseSchema,
  ZUpdateDeliveryHoursRequestSchema,
  ZCompanyResponseSchema,
  ZListChannelsResponseSchema,
  ZListClassroomsResponseSchema,
  ZListLanguagesResponseSchema,
  ZListTranslationsQuerySchema,
  ZListTranslationsResponseSchema,
} from '@ccp/schemas';
import type { TChannel, TLanguage, TTranslation } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  loadDeliveryHours,
  saveDeliveryHours,
  scheduledCourseUuids,
} from '../../../delivery/delivery-hours.ts';
import { syncCourseDelivery } from '../../../delivery/enrolment.ts';
import { holidayCountries } from '../../../delivery/holidays.ts';
import { textsUnder } from '../../../i18n/texts.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
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

  const deliveryHoursOf = async (companyUuid: string) => ({
    data: {
      ...(await loadDeliveryHours(app.db, companyUuid)),
      holiday_countries: await holidayCountries(),
    },
  });

  app.get(
    '/api/v1/company/delivery-hours',
    {
      schema: {
        tags: ['organisation'],
        summary: "The company's delivery hours: time zone, quiet hours, holiday country",
        description:
          'The zone of learners without their own (Europe/Rome by default), the quiet hours in each learner’s local time (no lesson goes out inside them: it waits for their end), and the country whose public holidays delay lessons to the next working day (a learner’s own country, from their time zone, comes first). `holiday_countries` lists the countries the holiday data knows.',
        response: { 200: ZDeliveryHoursResponseSchema },
      },
    },
    async (request) => deliveryHoursOf(authOf(request).user.company_uuid),
  );

  app.put(
    '/api/v1/company/delivery-hours',
    {
      schema: {
        tags: ['organisation'],
        summary: "Sets the company's delivery hours (administrators)",
        description:
          'The unsent lessons of the company’s scheduled courses are planned again at once, as a save of each course would; other courses follow when saved. 403 for a creator who is not an administrator; 422 for an unknown zone, malformed or equal quiet hours, or a country without holiday data.',
        body: ZUpdateDeliveryHoursRequestSchema,
        response: { 200: ZDeliveryHoursResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      if (Number(user.is_admin) !== 1) {
        throw new AppError('NO_PRIVILEGES', MESSAGES.deliveryHoursAdminOnly);
      }
      const hours = request.body;
      if (hours.holiday_country && !(await holidayCountries()).includes(hours.holiday_country)) {
        throw validationError({ holiday_country: [MESSAGES.holidayCountryUnknown] });
      }
      await saveDeliveryHours(app.db, user.company_uuid, hours);
      // As a save of each course would: its unsent lessons follow the new hours at once.
      for (const courseUuid of await scheduledCourseUuids(app.db, user.company_uuid)) {
        await syncCourseDelivery(app, courseUuid);
      }
      return deliveryHoursOf(user.company_uuid);
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
