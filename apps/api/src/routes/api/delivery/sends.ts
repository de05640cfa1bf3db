import {
  CONVERSATION_DEFAULT_TIME_ZONE,
  MESSAGES,
  ZConversationQuerySchema,
  ZCourseDeliveryFailuresResponseSchema,
  ZCourseParamsSchema,
  ZEnrolmentParamsSchema,
  ZLearnerConversationResponseSchema,
  ZLearnerDeliveriesResponseSchema,
  ZResendRequestSchema,
  ZResendResponseSchema,
  ZResumeResponseSchema,
  ZUuidParamsSchema,
} from '@ccp/schemas';
import type {
  TDeliveryFailure,
  TDeliveryFailureReason,
  TEnrollmentStatus,
  TLocale,
} from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { findCourse } from '../../../courses/courses-repository.ts';
import { conversationEvents, pageOfDays } from '../../../delivery/conversation.ts';
import { conversationRepository } from '../../../delivery/conversation-repository.ts';
import { pauseRepository } from '../../../delivery/pause.ts';
import { sendsRepository } from '../../../delivery/sends-repository.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { maybeText } from '../../../i18n/texts.ts';
import { findLearner } from '../../../learners/learners-repository.ts';
import { AppError, notFound } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';

// What went to a learner and what did not, and why (issue 25): the learner page's sends per
// course, a course's failures, and resending them (an administrator or the course's creator).

const TAGS = ['delivery'];

/** A stored failure as the caller reads it: the reason in their language and the provider's words. */
const failureOf = (
  lang: TLocale,
  code: string | null,
  detail: string | null,
): TDeliveryFailure | null => {
  if (code === null) return null;
  const reason = code as TDeliveryFailureReason;
  return {
    reason,
    message: maybeText(lang, `enum.deliveryFailure.${reason}`) ?? reason,
    detail: detail ?? '',
  };
};

/** Administrators resend any course's sends; a creator those of their own courses. */
const mayResend = (request: FastifyRequest, creatorUuid: string | null): boolean => {
  const { user } = authOf(request);
  return user.is_admin === 1 || creatorUuid === user.uuid;
};

/** The trainer acting, as the learner's conversation names them. */
const trainerOf = (request: FastifyRequest) => {
  const { user } = authOf(request);
  return {
    by: 'trainer' as const,
    uuid: user.uuid,
    name: `${user.first_name} ${user.last_name}`.trim() || user.email,
  };
};

/** The learner's enrolment a trainer pauses or resumes: 404 unknown, 403 not theirs to change. */
const enrolmentToChange = async (
  request: FastifyRequest,
  params: { uuid: string; enrollmentUuid: string },
) => {
  const { user } = authOf(request);
  const { db } = request.server;
  const learner = await findLearner(db, user.company_uuid, params.uuid);
  const enrolment = await pauseRepository.enrolmentOf(
    db,
    user.company_uuid,
    learner.uuid,
    params.enrollmentUuid,
  );
  if (!enrolment) throw notFound(MESSAGES.enrolmentNotFound);
  if (!mayResend(request, enrolment.creator_uuid)) {
    throw new AppError('FORBIDDEN', MESSAGES.resendNotAllowed);
  }
  return enrolment;
};

/** The enrolment as the pause and resume routes answer it. */
const enrolmentState = async (db: FastifyRequest['server']['db'], uuid: string) => {
  const state = await pauseRepository.stateOf(db, uuid);
  return {
    data: {
      uuid,
      status: state.status as TEnrollmentStatus,
      pause_reason: state.pause_reason,
      next_lesson_at: state.next_lesson_at,
    },
  };
};

export const sendsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/learners/:uuid/enrollments/:enrollmentUuid/resume',
    {
      schema: {
        tags: TAGS,
        summary: 'Resume a paused learner in a course (administrators, the course’s creator)',
        description:
          'The learner gets lessons again: the ones held while paused are planned from the next slot of the course. A learner who is not paused answers 409 (one who wrote STOP stays stopped: only they can ask for lessons).',
        params: ZEnrolmentParamsSchema,
        response: { 200: ZResumeResponseSchema },
      },
    },
    async (request) => {
      const enrolment = await enrolmentToChange(request, request.params);
      const [resumed] = await pauseRepository.resume(app, [enrolment.uuid], trainerOf(request));
      if (!resumed) throw new AppError('CONFLICT', MESSAGES.enrolmentNotPaused);
      app.deliveryWake.notify();
      return enrolmentState(app.db, enrolment.uuid);
    },
  );

  app.post(
    '/api/v1/learners/:uuid/enrollments/:enrollmentUuid/pause',
    {
      schema: {
        tags: TAGS,
        summary: 'Pause a learner in a course (administrators, the course’s creator)',
        description:
          'The learner gets no lessons until resumed (by the resume route, or their own RESUME); their planned lessons are held. Only an enrolled learner can be paused (409 otherwise).',
        params: ZEnrolmentParamsSchema,
        response: { 200: ZResumeResponseSchema },
      },
    },
    async (request) => {
      const enrolment = await enrolmentToChange(request, request.params);
      const paused = await pauseRepository.pauseByTrainer(
        app.db,
        enrolment.uuid,
        trainerOf(request),
        app.clock.now().toISOString(),
      );
      if (!paused) throw new AppError('CONFLICT', MESSAGES.enrolmentNotEnrolled);
      return enrolmentState(app.db, enrolment.uuid);
    },
  );

  app.get(
    '/api/v1/learners/:uuid/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'What was sent to a learner, per course: the invitation and each lesson day',
        description:
          'Each lesson day with its status and times, the provider’s message id, and for what did not go its reason (`failure.reason`, one of DELIVERY_FAILURE_REASONS, with `message` in the Accept-Language and the provider’s words as `detail`). `resendable` says whether the caller may resend it.',
        params: ZUuidParamsSchema,
        response: { 200: ZLearnerDeliveriesResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const lang = requestLanguage(request);
      const learner = await findLearner(app.db, user.company_uuid, request.params.uuid);
      const courses = await sendsRepository.learnerCourses(app.db, user.company_uuid, learner.uuid);
      const sends = await sendsRepository.lessonSends(
        app.db,
        learner.uuid,
        courses.map((course) => course.course_uuid),
      );
      return {
        data: courses.map((course) => {
          const resend = mayResend(request, course.creator_uuid);
          return {
            course: {
              uuid: course.course_uuid,
              classroom_uuid: course.classroom_uuid,
              name: course.course_name,
              status: course.course_status,
            },
            enrollment: {
              uuid: course.enrollment_uuid,
              status: course.enrollment_status,
              channel: course.channel,
              pause_reason: course.pause_reason,
              paused_at: course.paused_at,
              resumable: resend && course.paused_at !== null && course.pause_reason !== 'stop',
              pausable:
                resend && course.enrollment_status === 'enrolled' && course.paused_at === null,
            },
            invitation: course.invited
              ? {
                  sent_at: course.invitation_sent_at,
                  failure: failureOf(
                    lang,
                    course.invitation_failure_code,
                    course.invitation_failure_detail,
                  ),
                  retry_at: course.invitation_retry_at,
                  resendable:
                    resend &&
                    course.enrollment_status === 'invited' &&
                    course.invitation_failure_code !== null,
                }
              : null,
            lessons: sends
              .filter((send) => send.course_uuid === course.course_uuid)
              .map(({ course_uuid: _course, failure_code, failure_detail, ...send }) => ({
                ...send,
                failure: failureOf(lang, failure_code, failure_detail),
                resendable: resend && send.status === 'failed',
              })),
          };
        }),
      };
    },
  );

  app.get(
    '/api/v1/learners/:uuid/conversation',
    {
      schema: {
        tags: TAGS,
        summary: 'The learner’s conversation in a course, day by day (issue 28)',
        description:
          'Every step in the order it happened: invitation, each lesson sent (or why not), delivered, read, the answer (its text, right or wrong), the feedback and completion messages, reminders, the question closed or not, missed answers, repeats sent and answered, and pauses, resumes and STOP with who did them and why. Days are calendar days in `tz` (default Europe/Rome), oldest first, at most `days` of them (default 7, at most 31): the latest ones, or those before `before`; `earlier` is the `before` of the page before. Without `course`, the course with the latest activity; `courses` lists the learner’s courses.',
        params: ZUuidParamsSchema,
        querystring: ZConversationQuerySchema,
        response: { 200: ZLearnerConversationResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const lang = requestLanguage(request);
      const learner = await findLearner(app.db, user.company_uuid, request.params.uuid);
      const courses = await sendsRepository.learnerCourses(app.db, user.company_uuid, learner.uuid);
      const { course: courseUuid, before, days, tz } = request.query;
      const timeZone = tz ?? CONVERSATION_DEFAULT_TIME_ZONE;
      // Without a course asked for: the one where something happened last.
      const chosen = courseUuid
        ? courses.find((course) => course.course_uuid === courseUuid)
        : courses.reduce<(typeof courses)[number] | undefined>(
            (latest, course) =>
              !latest || course.updated_at > latest.updated_at ? course : latest,
            undefined,
          );
      if (courseUuid && !chosen) throw notFound(MESSAGES.conversationCourseNotFound);
      const list = courses.map((course) => ({
        uuid: course.course_uuid,
        name: course.course_name,
        channel: course.channel,
      }));
      if (!chosen) {
        return {
          data: { courses: list, course: null, time_zone: timeZone, days: [], earlier: null },
        };
      }
      const sources = await conversationRepository.sources(app.db, {
        uuid: chosen.enrollment_uuid,
        course_uuid: chosen.course_uuid,
        learner_uuid: learner.uuid,
      });
      const events = conversationEvents(sources, (code, detail) => failureOf(lang, code, detail)!);
      return {
        data: {
          courses: list,
          course: { uuid: chosen.course_uuid, name: chosen.course_name },
          time_zone: timeZone,
          ...pageOfDays(events, { timeZone, before, days }),
        },
      };
    },
  );

  app.get(
    '/api/v1/classrooms/:classroomUuid/courses/:courseUuid/delivery-failures',
    {
      schema: {
        tags: TAGS,
        summary: 'The course’s lessons and invitations that did not go, with why',
        params: ZCourseParamsSchema,
        response: { 200: ZCourseDeliveryFailuresResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const lang = requestLanguage(request);
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, user.company_uuid, classroomUuid, courseUuid);
      const rows = await sendsRepository.courseFailures(app.db, course.uuid);
      return {
        data: {
          items: rows.map((row) => ({
            kind: row.kind,
            uuid: row.uuid,
            learner: {
              uuid: row.learner_uuid,
              first_name: row.first_name,
              last_name: row.last_name,
            },
            channel: row.channel,
            day: row.day,
            at: row.at,
            failure: failureOf(lang, row.failure_code, row.failure_detail)!,
          })),
          resendable: mayResend(request, course.creator_uuid),
        },
      };
    },
  );

  app.post(
    '/api/v1/classrooms/:classroomUuid/courses/:courseUuid/resend',
    {
      schema: {
        tags: TAGS,
        summary:
          'Resend failed lessons and invitations of the course (administrators, its creator)',
        description:
          '`lessons` and `invitations` name lesson sends and enrolments (as the learner page and delivery-failures give them), or `all_failed: true` takes every one that failed. They go at the scheduler’s next run; a course that had ended for want of anything to send runs again. Ones that did not fail are left as they are (the counts say how many were taken).',
        params: ZCourseParamsSchema,
        body: ZResendRequestSchema,
        response: { 200: ZResendResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, user.company_uuid, classroomUuid, courseUuid);
      if (!mayResend(request, course.creator_uuid)) {
        throw new AppError('FORBIDDEN', MESSAGES.resendNotAllowed);
      }
      if (course.deleted_at !== null || !sendsRepository.sends(course.status)) {
        throw new AppError('CONFLICT', MESSAGES.resendCourseNotLive);
      }
      const { lessons, invitations, all_failed: allFailed } = request.body;
      const counts = await sendsRepository.resend(
        app.db,
        course.uuid,
        { lessons, invitations, allFailed },
        app.clock.now().toISOString(),
      );
      return { data: counts };
    },
  );
};
