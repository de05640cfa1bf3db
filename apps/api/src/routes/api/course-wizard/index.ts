import {
  CHANNEL_KEYS,
  MESSAGES,
  UNLIMITED,
  ZChannelPreviewRequestSchema,
  ZChannelPreviewsResponseSchema,
  ZCourseParamsSchema,
  ZDeliveryCalendarRequestSchema,
  ZDeliveryCalendarResponseSchema,
  ZDeliveryOptionsQuerySchema,
  ZDeliveryOptionsResponseSchema,
  ZPreviewLessonSchema,
  isLocale,
  validateDeliveryDate,
} from '@ccp/schemas';
import type { TChannelKey, TDeliveryOptions } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { deliveryCalendar } from '../../../delivery/calendar.ts';
import { connectionStatuses } from '../../../delivery/connections.ts';
import { learnerHoursResolver, loadDeliveryHours } from '../../../delivery/delivery-hours.ts';
import { learnerChannel } from '../../../delivery/enrolment.ts';
import { previewLesson } from '../../../delivery/preview.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { planFunctionsOf } from '../../../lib/plan-limits.ts';
import { channelsInUse } from '../../../lib/usage.ts';
import { authOf } from '../../../plugins/auth.ts';
import { findCourse, loadCourse } from '../../../courses/courses-repository.ts';
import { findLearner } from '../../../learners/learners-repository.ts';

// What the course wizard asks besides saving (docs/decisions.md "Course wizard"): the calendar of
// every send (the scheduler's own schedule function), the channels and learners lists a course
// can go out on, and a day as each channel would receive it (the scheduler's own renderer).

const TAGS = ['course wizard'];

const emptyCounts = (): Record<TChannelKey, number> =>
  Object.fromEntries(CHANNEL_KEYS.map((key) => [key, 0])) as Record<TChannelKey, number>;

export const courseWizardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/courses/helpers/delivery-calendar',
    {
      schema: {
        tags: TAGS,
        summary: 'The calendar of every lesson send of a delivery setting',
        description:
          'Computed by the scheduler’s schedule function: the send of each lesson day with its UTC instant, its wall time and offset in Europe/Rome (CET/CEST, `offset_changed` when a daylight-saving change falls before it) and the dates skipped weekdays left out. With `learner_uuid` (404 when not a learner of the company), for that learner’s hours: times in their zone, with the company’s quiet hours and their holidays (`delayed`, `holiday`); without it, for a learner in the company’s zone. The date window is not checked here (publishing does); a missing `start_date` answers 422.',
        body: ZDeliveryCalendarRequestSchema,
        response: { 200: ZDeliveryCalendarResponseSchema },
      },
    },
    async (request) => {
      const { distribution, days, learner_uuid: learnerUuid } = request.body;
      if (!distribution.start_date) {
        throw validationError({
          'distribution.start_date': [validateDeliveryDate(null, app.clock.now()) ?? ''],
        });
      }
      const companyUuid = authOf(request).user.company_uuid;
      // Without a learner: one in the company's zone, as most learners are.
      const learner = learnerUuid ? await findLearner(app.db, companyUuid, learnerUuid) : null;
      const timeZone = learner?.time_zone ?? null;
      const hoursOf = await learnerHoursResolver(
        await loadDeliveryHours(app.db, companyUuid),
        distribution,
        [timeZone],
        requestLanguage(request),
      );
      return { data: deliveryCalendar(distribution, days, hoursOf(timeZone).hours) };
    },
  );

  app.get(
    '/api/v1/classrooms/:classroomUuid/courses/:courseUuid/delivery-options',
    {
      schema: {
        tags: TAGS,
        summary: 'The channels and learners lists a course can be delivered on',
        description:
          'Every channel with its `connection` status and whether lessons on it really go out (`sends`: only a connected provider sends; a demo, disconnected or failing connection sends nothing), `allowed` (the plan’s `distribution-channels` counts distinct channels across the company’s non-archived courses: a channel the other courses use, or one more while the limit allows), the company’s learners lists with the members reachable on each channel (the channel and its contact: a phone for WhatsApp, an e-mail otherwise), and with `channel` and `lists` (comma-separated uuids) the distinct learners reached.',
        params: ZCourseParamsSchema,
        querystring: ZDeliveryOptionsQuerySchema,
        response: { 200: ZDeliveryOptionsResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = authOf(request).user.company_uuid;
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, companyUuid, classroomUuid, courseUuid);
      const [channels, inUse, functions, connections] = await Promise.all([
        app.db.selectFrom('channels').selectAll().orderBy('position').execute(),
        channelsInUse(app.db, companyUuid, course.uuid),
        planFunctionsOf(app.db, companyUuid),
        connectionStatuses(app.db, companyUuid),
      ]);
      const limit =
        functions.find((entry) => entry.function.key === 'distribution-channels')?.limit ?? 0;
      const allowed = (key: string) =>
        limit === UNLIMITED || inUse.has(key) ? limit !== 0 : inUse.size + 1 <= limit;

      const lists = await app.db
        .selectFrom('learners_lists')
        .select(['uuid', 'name'])
        .where('company_uuid', '=', companyUuid)
        .orderBy('name')
        .execute();
      const members = await app.db
        .selectFrom('learners_list_members as m')
        .innerJoin('learners_lists as l', 'l.uuid', 'm.list_uuid')
        .innerJoin('learners', 'learners.uuid', 'm.learner_uuid')
        .select([
          'm.list_uuid',
          'learners.uuid',
          'learners.channels',
          'learners.email',
          'learners.phone',
        ])
        .where('l.company_uuid', '=', companyUuid)
        .where('learners.deleted_at', 'is', null)
        .execute();
      const byList = new Map(
        lists.map((list) => [list.uuid, { count: 0, reachable: emptyCounts() }]),
      );
      const chosen = new Set(
        (request.query.lists ?? '')
          .split(',')
          .map((uuid) => uuid.trim().toLowerCase())
          .filter(Boolean),
      );
      const channel = request.query.channel;
      const reached = new Set<string>();
      for (const member of members) {
        const entry = byList.get(member.list_uuid);
        if (!entry) continue;
        entry.count += 1;
        for (const key of CHANNEL_KEYS) {
          if (learnerChannel(member, [key])) entry.reachable[key] += 1;
        }
        if (channel && chosen.has(member.list_uuid) && learnerChannel(member, [channel])) {
          reached.add(member.uuid);
        }
      }
      const data: TDeliveryOptions = {
        channels: channels.map(({ key, name, contact }) => ({
          key: key as TChannelKey,
          name,
          contact,
          allowed: allowed(key),
          connection: connections[key as TChannelKey],
          sends: connections[key as TChannelKey] === 'connected',
        })),
        channel_limit: { feature: 'distribution-channels', used: inUse.size, limit },
        lists: lists.map((list) => ({
          uuid: list.uuid,
          name: list.name,
          learners_count: byList.get(list.uuid)?.count ?? 0,
          reachable: byList.get(list.uuid)?.reachable ?? emptyCounts(),
        })),
        reached: channel && chosen.size > 0 ? reached.size : null,
      };
      return { data };
    },
  );

  app.post(
    '/api/v1/classrooms/:classroomUuid/courses/:courseUuid/channel-preview',
    {
      schema: {
        tags: TAGS,
        summary: 'A lesson day as each channel would deliver it',
        description:
          'Renders the lesson of `day` in `language` (the stored one, or `lesson` as edited and not yet saved) with the renderer the scheduler uses, for MS Teams, Slack, WhatsApp, Webex and Google Chat. Each preview has the payload the channel would be sent and the `issues` the channel cannot carry as written (too many answers for its buttons, a text too long, a button text cut), in the request’s language.',
        params: ZCourseParamsSchema,
        body: ZChannelPreviewRequestSchema,
        response: { 200: ZChannelPreviewsResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const { classroomUuid, courseUuid } = request.params;
      const row = await findCourse(app.db, user.company_uuid, classroomUuid, courseUuid);
      const course = await loadCourse(app.db, row.uuid);
      const { day, language } = request.body;
      if (!isLocale(language)) {
        throw validationError({ language: [MESSAGES.languageUnknown] });
      }
      const stored = course.lessons.find(
        (lesson) => lesson.day === day && lesson.language === language,
      );
      const lesson = request.body.lesson ?? (stored ? ZPreviewLessonSchema.parse(stored) : null);
      if (!lesson) throw new AppError('NOT_FOUND', MESSAGES.lessonMissing);
      const totalDays = Math.max(day, course.lessons_count);
      const previews = previewLesson(
        {
          language,
          day,
          totalDays,
          lesson,
          courseUuid: course.uuid,
          companyUuid: user.company_uuid,
          courseName: course.name,
        },
        requestLanguage(request),
      );
      return { data: { day, language, previews } };
    },
  );
};
