import { MESSAGES, normalizeTestLessonAddress } from '@ccp/schemas';
import type { TAssessment, TChannelKey, TLocale, TTestLesson } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import { AppError } from '../lib/app-error.ts';
import { newOrderedUuid } from '../lib/ids.ts';
import type { ChannelSettings } from './channel-settings.ts';
import { CHANNELS } from './channels/index.ts';
import { errorText } from './connector.ts';
import type { Connector } from './connector.ts';
import { connectionUuidOf, loadConnection, markProved } from './connections.ts';
import type { ConnectionDeps } from './connections.ts';
import { failureReasonOf } from './failure-reasons.ts';
import { claimInbound } from './inbound.ts';
import type { Inbound, InboundResult } from './inbound.ts';
import type {
  ChannelMessage,
  Connection,
  Feedback,
  Identity,
  LessonContent,
  RenderedPayload,
} from './message.ts';
import { testLessonOf, testLessonsRepository } from './test-lessons-repository.ts';
import type { TestLessonRecipient, TestLessonRow } from './test-lessons-repository.ts';

// "Send me a test lesson" (issue 29): the fixed one-question sample, in the administrator's
// language, sent to their own account through the channel's real module (its connector finds
// them as it finds a learner, its renderer writes the lesson), kept in channel_test_lessons and
// never as a learner or a lesson send. Their answer comes back through the channel's webhook
// (inbound.ts asks here first), is recorded with its time, and gets its feedback as a lesson's.

/** What sending needs: the connection (its secrets) and the provider settings. */
export type TestLessonDeps = ConnectionDeps & { channelSettings: ChannelSettings };

/**
 * What answering needs: a webhook's deps are the app, which carries the provider settings and the
 * secrets key; without them (a caller that has none) the answer is recorded and no feedback goes.
 */
export type TestAnswerDeps = Pick<ConnectionDeps, 'db' | 'clock'> &
  Partial<Pick<TestLessonDeps, 'channelSettings' | 'secretBox'>>;

// A typed "1" or "2" answers the administrator's test lesson only this long after it went: later
// it is more likely an answer to a lesson of their own, if they are a learner too.
const TYPED_ANSWER_WINDOW_MS = 60 * 60 * 1000;

/** The right answer is the first (index 0), the wrong one the second. */
const sampleAssessment = (language: TLocale): TAssessment => ({
  question: t(language, 'server.testLesson.question'),
  type: 'multiple_choice',
  mandatory: true,
  answers: [
    {
      text: t(language, 'server.testLesson.right'),
      correct: true,
      response: t(language, 'server.testLesson.rightResponse'),
    },
    {
      text: t(language, 'server.testLesson.wrong'),
      correct: false,
      response: t(language, 'server.testLesson.wrongResponse'),
    },
  ],
  thank_you_message: '',
});

/** The sample lesson, in one language (locales/server `testLesson.*`). */
export const sampleLesson = (language: TLocale): LessonContent => ({
  day: 1,
  title: t(language, 'server.testLesson.title'),
  topic_intro: t(language, 'server.testLesson.intro'),
  topic_content: t(language, 'server.testLesson.content'),
  learning_minutes: 1,
  media: null,
  assessment: sampleAssessment(language),
});

/**
 * The sample as a channel message: its buttons carry the test lesson's uuid where a lesson's
 * carry its send's, which is how an answer finds its way back here.
 */
const sampleMessage = (
  row: TestLessonRow,
  names: { firstName: string; lastName: string },
  feedback?: Feedback,
): ChannelMessage => {
  const language = row.language as TLocale;
  return {
    kind: feedback ? 'feedback' : 'lesson',
    channel: row.channel as TChannelKey,
    companyUuid: row.company_uuid,
    courseUuid: row.uuid,
    courseName: t(language, 'server.testLesson.course'),
    deliveryUuid: row.uuid,
    language,
    recipient: { learnerUuid: row.user_uuid, ...names, address: row.address },
    lesson: sampleLesson(language),
    totalDays: 1,
    ...(feedback ? { feedback } : {}),
  };
};

/**
 * The channel's connector twice over: with the database to find the administrator (Teams and
 * Google Chat look up the install they kept), without it to send — WhatsApp's connector notes
 * each part of a lesson send to resume it, and a test lesson is no lesson send and never resumed.
 */
const connectorsOf = (deps: TestLessonDeps, channel: TChannelKey) => ({
  finder: CHANNELS[channel].createConnector(deps.channelSettings, {
    clock: deps.clock,
    db: deps.db,
  }),
  sender: CHANNELS[channel].createConnector(deps.channelSettings, { clock: deps.clock }),
});

/** A working connection of the company on the channel; 409 with what to do when there is none. */
const workingConnection = async (
  deps: TestLessonDeps,
  companyUuid: string,
  channel: TChannelKey,
): Promise<Connection> => {
  if (!deps.secretBox) throw new AppError('CONFLICT', MESSAGES.secretsKeyMissing);
  const connection = await loadConnection(deps, companyUuid, channel);
  if (connection?.status !== 'connected') {
    throw new AppError('CONFLICT', MESSAGES.testLessonNeedsConnection);
  }
  return connection;
};

/** Where the administrator is on the provider, found as a learner is (their e-mail or phone). */
const findAdministrator = async (
  deps: TestLessonDeps,
  finder: Connector,
  connection: Connection,
  row: TestLessonRow,
): Promise<Identity> => {
  const found = await finder.resolveIdentity(connection, { uuid: row.uuid, address: row.address });
  // WhatsApp's window: open when they wrote within 24 hours (their last test lesson's answer).
  const lastInboundAt = await testLessonsRepository.lastInbound(
    deps.db,
    row.company_uuid,
    connection.channel,
    found.providerUserId,
  );
  return { ...found, lastInboundAt: found.lastInboundAt ?? lastInboundAt };
};

/**
 * Sends the sample to the administrator's own account on the channel, once (a failure is shown
 * with its reason, and "Send" again is a new test lesson). Answers the test lesson as recorded.
 */
export const sendTestLesson = async (
  deps: TestLessonDeps,
  request: {
    companyUuid: string;
    user: { uuid: string; first_name: string; last_name: string };
    channel: TChannelKey;
    address: string;
    language: TLocale;
  },
): Promise<TTestLesson> => {
  const { channel } = request;
  const connection = await workingConnection(deps, request.companyUuid, channel);
  // Ordered: two sent within the same clock millisecond (a moved test clock) still sort by which
  // came last, and the page shows the last.
  const uuid = newOrderedUuid();
  await testLessonsRepository.create(deps.db, {
    uuid,
    companyUuid: request.companyUuid,
    userUuid: request.user.uuid,
    channel,
    address: normalizeTestLessonAddress(channel, request.address),
    language: request.language,
    at: deps.clock.now().toISOString(),
  });
  const row = (await testLessonsRepository.find(deps.db, uuid))!;
  const { finder, sender } = connectorsOf(deps, channel);
  let recipient: TestLessonRecipient | null = null;
  try {
    const identity = await findAdministrator(deps, finder, connection, row);
    recipient = identity;
    const message = sampleMessage(row, {
      firstName: request.user.first_name,
      lastName: request.user.last_name,
    });
    const sent = await sender.send(connection, identity, message);
    await testLessonsRepository.sent(deps.db, uuid, {
      ...identity,
      providerMessageId: sent.providerMessageId,
      pending: sent.pending && sent.pending.length > 0 ? sent.pending : null,
      at: deps.clock.now().toISOString(),
    });
  } catch (error) {
    const verdict = finder.classifyError(error);
    await testLessonsRepository.failed(deps.db, uuid, {
      reason: failureReasonOf(verdict, CHANNELS[channel].failureCodes),
      detail: `${verdict.code}: ${errorText(error)}`,
      recipient,
      at: deps.clock.now().toISOString(),
    });
  }
  return testLessonOf((await testLessonsRepository.find(deps.db, uuid))!);
};

/** The administrator's last test lesson on the channel and the contact the form starts with. */
export const testLessonState = async (
  deps: Pick<TestLessonDeps, 'db'>,
  user: { uuid: string; email: string },
  channel: TChannelKey,
) => {
  const last = await testLessonsRepository.latest(deps.db, user.uuid, channel);
  return {
    default_address: last?.address ?? (CHANNELS[channel].contact === 'email' ? user.email : ''),
    last: last ? testLessonOf(last) : null,
  };
};

/**
 * The feedback on the answer, through the channel's connector like a lesson's (the verdict and
 * the answer's response; or that a later answer no longer counts), then the question closed
 * where the channel can edit it. Best effort: the answer is recorded whatever happens here.
 */
const sendFeedback = async (
  deps: TestAnswerDeps,
  row: TestLessonRow,
  feedback: Feedback,
  closeIndex: number | null,
): Promise<boolean> => {
  const { channelSettings, secretBox } = deps;
  if (!channelSettings || secretBox === undefined || !row.provider_user_id) return false;
  const settings = { db: deps.db, clock: deps.clock, secretBox, channelSettings };
  const channel = row.channel as TChannelKey;
  const connection = await loadConnection(settings, row.company_uuid, channel);
  if (!connection) return false;
  const connector = connectorsOf(settings, channel).sender;
  const nowIso = deps.clock.now().toISOString();
  // They just wrote: WhatsApp's window is open.
  const identity: Identity = {
    providerUserId: row.provider_user_id,
    conversationId: row.conversation_id,
    lastInboundAt: nowIso,
  };
  const names = { firstName: '', lastName: '' };
  let sent = false;
  try {
    await connector.send(connection, identity, sampleMessage(row, names, feedback));
    sent = true;
  } catch {
    // Recorded as not sent (the page says so); the answer itself stands.
  }
  const closing = row.provider_message_id;
  if (closeIndex !== null && connector.closeQuestion && closing) {
    try {
      await connector.closeQuestion(connection, identity, {
        providerMessageId: closing,
        message: sampleMessage(row, names),
        answerIndex: closeIndex,
      });
    } catch {
      // An edit that fails costs nothing: the feedback went, a second answer is told it is late.
    }
  }
  return sent;
};

/**
 * The company's test lesson a provider user acted on (null: the uuid is no test lesson's); 403
 * when they are not the administrator it went to, as for a learner's lesson.
 */
const actedOn = async (
  deps: TestAnswerDeps,
  inbound: Omit<Inbound, 'action'>,
  uuid: string,
): Promise<TestLessonRow | null> => {
  const row = await testLessonsRepository.ofCompany(
    deps.db,
    inbound.companyUuid,
    inbound.channel,
    uuid,
  );
  if (row && row.provider_user_id !== inbound.providerUserId) {
    throw new AppError('FORBIDDEN', MESSAGES.webhookWrongLearner);
  }
  return row;
};

/**
 * The answer came back through the provider's signed webhook: the whole path to a person and back
 * works, which no connection test can prove, so the card's "Reaching a learner" says proved.
 */
const proveLearnerReach = async (deps: TestAnswerDeps, row: TestLessonRow) => {
  const uuid = await connectionUuidOf(deps.db, row.company_uuid, row.channel as TChannelKey);
  if (uuid) await markProved(deps, { uuid }, 'learner_reach');
};

/**
 * A verified tap or reply that answers a test lesson (its button names the test lesson's uuid):
 * only the administrator it went to may answer; the first answer is kept with its time and gets
 * its feedback, a later one is told it no longer counts. Null when the action is no test
 * lesson's: the learner's path takes it.
 */
export const answerTestLesson = async (
  deps: TestAnswerDeps,
  inbound: Inbound,
): Promise<InboundResult | null> => {
  const { action } = inbound;
  if (action.type !== 'answered') return null;
  const row = await actedOn(deps, inbound, action.delivery_uuid);
  if (!row) return null;
  const answers = sampleAssessment(row.language as TLocale).answers;
  const index = action.answer;
  const chosen = index === undefined ? undefined : answers[index];
  if (index === undefined || !chosen) return 'ignored';
  const nowIso = deps.clock.now().toISOString();
  if (!(await claimInbound(deps, inbound, nowIso))) return 'duplicate';
  // Proved before the answer is stored: the Channels page, seeing the answer, reads the proofs
  // once, and they must already say so (a proof written after the answer raced that read).
  await proveLearnerReach(deps, row);
  const first = await testLessonsRepository.answer(deps.db, row.uuid, {
    index,
    correct: chosen.correct,
    at: nowIso,
  });
  const feedback: Feedback = first
    ? { kind: 'answer', correct: chosen.correct, text: chosen.response, completion: null }
    : { kind: 'already_answered' };
  const sent = await sendFeedback(deps, row, feedback, first ? index : null);
  if (!first) return 'duplicate';
  await testLessonsRepository.feedback(deps.db, row.uuid, sent, nowIso);
  return 'recorded';
};

/**
 * A message the administrator typed ("1", "2.") as the answer to their test lesson still
 * waiting, sent within the last hour. Null when it answers none.
 */
export const answerTestReply = async (
  deps: TestAnswerDeps,
  reply: Omit<Inbound, 'action'> & { text: string },
): Promise<InboundResult | null> => {
  const number = /^\s*([1-9])\.?\s*$/.exec(reply.text);
  if (!number) return null;
  const row = await testLessonsRepository.waitingFor(
    deps.db,
    reply.companyUuid,
    reply.channel,
    reply.providerUserId,
  );
  const age = row ? deps.clock.now().getTime() - Date.parse(row.created_at) : Infinity;
  if (!row || row.status !== 'sent' || age > TYPED_ANSWER_WINDOW_MS) return null;
  const { text: _text, ...inbound } = reply;
  return answerTestLesson(deps, {
    ...inbound,
    action: { type: 'answered', delivery_uuid: row.uuid, answer: Number(number[1]) - 1 },
  });
};

/**
 * WhatsApp's Start on the template a test lesson went as (outside the 24-hour window): the
 * question that waited goes now, through the provider's `send` (one message object each). Null when the Start
 * names no test lesson.
 */
export const startTestLesson = async (
  deps: TestAnswerDeps,
  start: Omit<Inbound, 'action'> & { testLessonUuid: string },
  provider: {
    send: (payload: RenderedPayload) => Promise<string>;
    classifyError: Connector['classifyError'];
  },
): Promise<InboundResult | null> => {
  const row = await actedOn(deps, start, start.testLessonUuid);
  if (!row) return null;
  const nowIso = deps.clock.now().toISOString();
  const { pending } = row;
  if (!pending || !(await testLessonsRepository.takePending(deps.db, row.uuid, pending, nowIso))) {
    return 'duplicate';
  }
  const ids: string[] = [];
  try {
    for (const payload of JSON.parse(pending) as RenderedPayload[]) {
      ids.push(await provider.send(payload));
    }
  } catch (error) {
    const verdict = provider.classifyError(error);
    await testLessonsRepository.failed(deps.db, row.uuid, {
      reason: failureReasonOf(verdict, CHANNELS[start.channel].failureCodes),
      detail: `${verdict.code}: ${errorText(error)}`,
      recipient: null,
      at: nowIso,
    });
    return 'recorded';
  }
  await testLessonsRepository.pendingSent(deps.db, row.uuid, ids, nowIso);
  return 'recorded';
};
