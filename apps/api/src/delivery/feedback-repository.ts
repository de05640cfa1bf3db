import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import type { LessonSendRow } from './deliveries-repository.ts';
import { lessonSends, MESSAGE_COLUMNS } from './deliveries-repository.ts';

// The SQL of the feedback on an answer (issue 28): queued when a learner's answer is recorded
// (`pending`), or when a later answer must be told it no longer counts (`repeat`); claimed by the
// scheduler (`sending`, the state it was claimed from kept in `feedback_at` until the finish),
// then `sent` or `failed`. One message per answer at most: a claimed feedback is never sent again.

/** What a feedback's message needs besides the lesson send: which answer, and which message. */
export type FeedbackRow = LessonSendRow & {
  answer_index: number | null;
  answer_correct: number | null;
  feedback_status: 'pending' | 'repeat';
  /** The question's message on the provider, edited once answered (null: none kept). */
  provider_message_id: string | null;
};

const QUEUED = ['pending', 'repeat'] as const;

export const feedbackRepository = {
  /**
   * Queues the feedback on an answer just recorded (`first`: its response; else a later answer,
   * told it no longer counts). A feedback already queued or being sent is left as it is.
   */
  queue: async (
    db: Db,
    deliveryUuid: string,
    answer: { first: boolean; answerIndex: number | null; at: string },
  ): Promise<void> => {
    const query = db.updateTable('lesson_deliveries').where('uuid', '=', deliveryUuid);
    if (answer.first) {
      await query
        .set({
          feedback_status: 'pending',
          answer_index: answer.answerIndex,
          updated_at: answer.at,
        })
        .where('feedback_status', 'is', null)
        .execute();
      return;
    }
    await query
      .set({ feedback_status: 'repeat', updated_at: answer.at })
      .where('feedback_status', 'in', ['sent', 'failed'])
      .execute();
  },

  /** Feedback waiting to go, oldest answer first. */
  queued: (db: Db, limit: number): Promise<FeedbackRow[]> =>
    lessonSends(db)
      .select([
        ...MESSAGE_COLUMNS,
        'd.answer_index',
        'd.answer_correct',
        'd.feedback_status as feedback_status',
        'd.provider_message_id',
      ])
      .where('d.feedback_status', 'in', [...QUEUED])
      .orderBy('d.answered_at')
      .limit(limit)
      .execute() as Promise<FeedbackRow[]>,

  /** Takes a queued feedback once (pending or repeat → sending). */
  claim: (db: Db, row: FeedbackRow, at: string): CompiledQuery =>
    db
      .updateTable('lesson_deliveries')
      .set({ feedback_status: 'sending', feedback_at: at })
      .where('uuid', '=', row.uuid)
      .where('feedback_status', '=', row.feedback_status)
      .compile(),

  /** A learner's answers in a course so far: how many, and how many right. */
  score: async (
    db: Db,
    courseUuid: string,
    learnerUuid: string,
  ): Promise<{ answered: number; right: number }> => {
    const row = await db
      .selectFrom('lesson_deliveries')
      .select((eb) => [
        eb.fn.count<number>('answered_at').as('answered'),
        eb.fn.sum<number>('answer_correct').as('right'),
      ])
      .where('course_uuid', '=', courseUuid)
      .where('learner_uuid', '=', learnerUuid)
      .executeTakeFirst();
    return { answered: Number(row?.answered ?? 0), right: Number(row?.right ?? 0) };
  },

  /** How a claimed feedback ended. */
  finish: (db: Db, uuid: string, sent: boolean, at: string): CompiledQuery =>
    db
      .updateTable('lesson_deliveries')
      .set({ feedback_status: sent ? 'sent' : 'failed', feedback_at: at })
      .where('uuid', '=', uuid)
      .where('feedback_status', '=', 'sending')
      .compile(),
};
