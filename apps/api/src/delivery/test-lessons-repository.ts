import type { TChannelKey, TDeliveryFailureReason, TLocale, TTestLesson } from '@ccp/schemas';
import type { Selectable } from 'kysely';

import type { Db } from '../db/index.ts';
import type { ChannelTestLessonsTable } from '../db/types.ts';
import type { RenderedPayload } from './message.ts';

// The SQL of channel_test_lessons (0045): the sample lessons administrators sent themselves,
// what the provider answered, and the answer that came back (issue 29).

export type TestLessonRow = Selectable<ChannelTestLessonsTable>;

/** Where the provider says the administrator is, once found. */
export type TestLessonRecipient = { providerUserId: string; conversationId: string | null };

/** The API's view of a row. */
export const testLessonOf = (row: TestLessonRow): TTestLesson => ({
  uuid: row.uuid,
  channel: row.channel as TChannelKey,
  address: row.address,
  language: row.language as TLocale,
  status: row.status,
  provider_message_id: row.provider_message_id,
  failure:
    row.status === 'failed'
      ? {
          reason: (row.failure_code ?? 'provider_error') as TDeliveryFailureReason,
          detail: row.failure_detail ?? '',
        }
      : null,
  answer:
    row.answer_index !== null
      ? { index: Number(row.answer_index), correct: Number(row.answer_correct) === 1 }
      : null,
  feedback_sent: row.feedback_status === null ? null : row.feedback_status === 'sent',
  sent_at: row.created_at,
  answered_at: row.answered_at,
});

export const testLessonsRepository = {
  create: async (
    db: Db,
    values: {
      uuid: string;
      companyUuid: string;
      userUuid: string;
      channel: TChannelKey;
      address: string;
      language: TLocale;
      at: string;
    },
  ): Promise<void> => {
    await db
      .insertInto('channel_test_lessons')
      .values({
        uuid: values.uuid,
        company_uuid: values.companyUuid,
        user_uuid: values.userUuid,
        channel: values.channel,
        address: values.address,
        language: values.language,
        status: 'sending',
        created_at: values.at,
        updated_at: values.at,
      })
      .execute();
  },

  find: async (db: Db, uuid: string): Promise<TestLessonRow | null> =>
    (await db
      .selectFrom('channel_test_lessons')
      .selectAll()
      .where('uuid', '=', uuid)
      .executeTakeFirst()) ?? null,

  /** A company's test lesson on a channel, by its uuid (an answer's button names it). */
  ofCompany: async (
    db: Db,
    companyUuid: string,
    channel: TChannelKey,
    uuid: string,
  ): Promise<TestLessonRow | null> =>
    (await db
      .selectFrom('channel_test_lessons')
      .selectAll()
      .where('uuid', '=', uuid)
      .where('company_uuid', '=', companyUuid)
      .where('channel', '=', channel)
      .executeTakeFirst()) ?? null,

  /** The administrator's latest test lesson on the channel, or null. */
  latest: async (db: Db, userUuid: string, channel: TChannelKey): Promise<TestLessonRow | null> =>
    (await db
      .selectFrom('channel_test_lessons')
      .selectAll()
      .where('user_uuid', '=', userUuid)
      .where('channel', '=', channel)
      .orderBy('created_at', 'desc')
      .orderBy('uuid', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null,

  /** The provider user's newest test lesson still waiting for its answer (a typed one finds it). */
  waitingFor: async (
    db: Db,
    companyUuid: string,
    channel: TChannelKey,
    providerUserId: string,
  ): Promise<TestLessonRow | null> =>
    (await db
      .selectFrom('channel_test_lessons')
      .selectAll()
      .where('company_uuid', '=', companyUuid)
      .where('channel', '=', channel)
      .where('provider_user_id', '=', providerUserId)
      .where('status', 'in', ['sent', 'waiting'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null,

  /** When the provider user last wrote on the channel, as their test lessons saw it. */
  lastInbound: async (
    db: Db,
    companyUuid: string,
    channel: TChannelKey,
    providerUserId: string,
  ): Promise<string | null> => {
    const row = await db
      .selectFrom('channel_test_lessons')
      .select((eb) => eb.fn.max('last_inbound_at').as('at'))
      .where('company_uuid', '=', companyUuid)
      .where('channel', '=', channel)
      .where('provider_user_id', '=', providerUserId)
      .executeTakeFirst();
    return row?.at ?? null;
  },

  /** The provider took it: `waiting` when only the template went (WhatsApp), with what follows. */
  sent: async (
    db: Db,
    uuid: string,
    values: TestLessonRecipient & {
      providerMessageId: string;
      pending: RenderedPayload[] | null;
      at: string;
    },
  ): Promise<void> => {
    await db
      .updateTable('channel_test_lessons')
      .set({
        status: values.pending ? 'waiting' : 'sent',
        provider_user_id: values.providerUserId,
        conversation_id: values.conversationId,
        provider_message_id: values.providerMessageId,
        pending: values.pending ? JSON.stringify(values.pending) : null,
        updated_at: values.at,
      })
      .where('uuid', '=', uuid)
      .execute();
  },

  failed: async (
    db: Db,
    uuid: string,
    values: {
      reason: TDeliveryFailureReason;
      detail: string;
      recipient: TestLessonRecipient | null;
      at: string;
    },
  ): Promise<void> => {
    await db
      .updateTable('channel_test_lessons')
      .set({
        status: 'failed',
        failure_code: values.reason,
        failure_detail: values.detail,
        ...(values.recipient
          ? {
              provider_user_id: values.recipient.providerUserId,
              conversation_id: values.recipient.conversationId,
            }
          : {}),
        updated_at: values.at,
      })
      .where('uuid', '=', uuid)
      .execute();
  },

  /**
   * Takes the waiting messages off the row (WhatsApp's Start): only whoever finds them still there
   * sends them, so of two deliveries of the same tap only one does.
   */
  takePending: async (db: Db, uuid: string, pending: string, at: string): Promise<boolean> => {
    const taken = await db
      .updateTable('channel_test_lessons')
      .set({ pending: null, status: 'sent', last_inbound_at: at, updated_at: at })
      .where('uuid', '=', uuid)
      .where('status', '=', 'waiting')
      .where('pending', '=', pending)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  },

  /** The question went after Start: its message ids join the template's. */
  pendingSent: async (db: Db, uuid: string, providerMessageIds: string[], at: string) => {
    const row = await testLessonsRepository.find(db, uuid);
    await db
      .updateTable('channel_test_lessons')
      .set({
        provider_message_id: [row?.provider_message_id, ...providerMessageIds]
          .filter((id) => id)
          .join(','),
        updated_at: at,
      })
      .where('uuid', '=', uuid)
      .execute();
  },

  /** The first answer counts; false when one came back before. */
  answer: async (
    db: Db,
    uuid: string,
    answer: { index: number; correct: boolean; at: string },
  ): Promise<boolean> => {
    const result = await db
      .updateTable('channel_test_lessons')
      .set({
        status: 'answered',
        answer_index: answer.index,
        answer_correct: answer.correct ? 1 : 0,
        answered_at: answer.at,
        last_inbound_at: answer.at,
        updated_at: answer.at,
      })
      .where('uuid', '=', uuid)
      .where('answered_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  feedback: async (db: Db, uuid: string, sent: boolean, at: string): Promise<void> => {
    await db
      .updateTable('channel_test_lessons')
      .set({ feedback_status: sent ? 'sent' : 'failed', updated_at: at })
      .where('uuid', '=', uuid)
      .execute();
  },
};
