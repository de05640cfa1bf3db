import {
  MESSAGES,
  ZChannelParamsSchema,
  ZTestLessonRequestSchema,
  ZTestLessonResponseSchema,
  ZTestLessonStateResponseSchema,
  testLessonAddressIssue,
} from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { sendTestLesson, testLessonState } from '../../../delivery/test-lesson.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';

// "Send me a test lesson" on the Channels page (issue 29): an administrator sends the one-question
// sample to their own account on a connected channel, then polls until their answer came back.

const TAGS = ['channels'];
const BASE = '/api/v1/channel-connections/:channel/test-lesson';

const adminOf = (request: FastifyRequest) => {
  const { user } = authOf(request);
  if (user.is_admin !== 1) throw new AppError('FORBIDDEN', MESSAGES.connectionsAdminOnly);
  return user;
};

export const testLessonsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    BASE,
    {
      schema: {
        tags: TAGS,
        summary:
          'Your last test lesson on a channel (poll it: sent, failed with its reason, or answered at)',
        description:
          '`default_address` is your account’s e-mail (Slack, Teams, Webex, Google Chat), or the phone your last WhatsApp test lesson went to. `last` is null before your first test lesson.',
        params: ZChannelParamsSchema,
        response: { 200: ZTestLessonStateResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      return { data: await testLessonState(app, user, request.params.channel) };
    },
  );

  app.post(
    BASE,
    {
      schema: {
        tags: TAGS,
        summary: 'Send yourself a test lesson (administrators)',
        'x-errors': [409],
        description:
          'Sends the fixed one-question sample lesson, in your language, to your own account on the channel (`address`: your e-mail there, or your phone for WhatsApp), through the channel’s connection. It is no learner and no lesson send: nothing of it counts in Insights, usage or plan limits. Answers `sent` with the provider’s message id, `waiting` (WhatsApp outside the 24-hour window: tap Start on the template), or `failed` with the reason (Teams and Google Chat: install or add the app for yourself first). Your answer, tapped or typed, makes it `answered`. 409 when the channel has no working connection.',
        params: ZChannelParamsSchema,
        body: ZTestLessonRequestSchema,
        response: { 200: ZTestLessonResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      const { channel } = request.params;
      const issue = testLessonAddressIssue(channel, request.body.address);
      if (issue) throw validationError({ address: [issue] });
      const data = await sendTestLesson(app, {
        companyUuid: user.company_uuid,
        user,
        channel,
        address: request.body.address,
        language: requestLanguage(request),
      });
      return { data };
    },
  );
};
