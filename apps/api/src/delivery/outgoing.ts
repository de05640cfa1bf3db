import { CHANNEL_CONTACT } from '@ccp/schemas';
import type { TAssessment, TChannelKey, TLessonMedia, TLocale } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { LessonsTable } from '../db/types.ts';
import type { ChannelAdapter } from './channels.ts';
import type { InvitationRow, LessonSendRow } from './deliveries-repository.ts';
import { lessonLanguage, loadCoursePlan } from './enrolment.ts';
import type { CoursePlan } from './enrolment.ts';
import type { FeedbackRow } from './feedback-repository.ts';
import type {
  ChannelMessage,
  Completion,
  Feedback,
  KnownIdentity,
  LessonContent,
} from './message.ts';
import { learnerTexts } from './render-common.ts';

// The messages the scheduler hands to a channel, built from the rows it claimed: the lesson, its
// reminder and the opt-in invitation, with the course's plan and the lesson's texts read once a
// tick (a tick sends the same few lessons to thousands of learners).

type LessonRow = Pick<
  LessonsTable,
  'day' | 'title' | 'topic_intro' | 'topic_content' | 'learning_minutes' | 'media' | 'assessment'
> & { short_name: string };

const readLessons = (db: Db, courseUuid: string): Promise<LessonRow[]> =>
  db
    .selectFrom('lessons')
    .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
    .select([
      'lessons.day',
      'lessons.title',
      'lessons.topic_intro',
      'lessons.topic_content',
      'lessons.learning_minutes',
      'lessons.media',
      'lessons.assessment',
      'languages.short_name',
    ])
    .where('lessons.course_uuid', '=', courseUuid)
    .execute();

const contentOf = (row: LessonRow, day: number): LessonContent => ({
  day,
  title: row.title,
  topic_intro: row.topic_intro,
  topic_content: row.topic_content,
  learning_minutes: Number(row.learning_minutes),
  media: row.media ? (JSON.parse(row.media) as TLessonMedia) : null,
  assessment: row.assessment ? (JSON.parse(row.assessment) as TAssessment) : null,
});

/** A value per key, computed once. */
const memo = <T>(compute: (key: string) => T) => {
  const values = new Map<string, T>();
  return (key: string): T => {
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = compute(key)));
    return value;
  };
};

/** Per-tick caches of course plans and lesson texts. */
export const createLookups = (db: Db) => {
  const planOf = memo((courseUuid) => loadCoursePlan(db, courseUuid));
  const lessonsOf = memo((courseUuid) => readLessons(db, courseUuid));
  const readLesson = async (courseUuid: string, day: number, language: string) => {
    const [rows, plan] = await Promise.all([lessonsOf(courseUuid), planOf(courseUuid)]);
    const ofDay = rows.filter((row) => Number(row.day) === day);
    const row =
      ofDay.find((lesson) => lesson.short_name === language) ??
      ofDay.find((lesson) => lesson.short_name === plan?.primary) ??
      ofDay[0];
    return row ? contentOf(row, day) : null;
  };
  const contents = memo((key) => {
    const [courseUuid, day, language] = key.split(' ') as [string, string, string];
    return readLesson(courseUuid, Number(day), language);
  });
  return {
    planOf: (courseUuid: string): Promise<CoursePlan | undefined> => planOf(courseUuid),
    /**
     * A lesson send's course plan and its lesson: of its day in its language, else in the
     * course's primary language, else any.
     */
    lessonOf: (row: {
      course_uuid: string;
      day: number;
      language: string;
    }): Promise<[CoursePlan | undefined, LessonContent | null]> =>
      Promise.all([
        planOf(row.course_uuid),
        contents(`${row.course_uuid} ${Number(row.day)} ${row.language}`),
      ]),
  };
};
export type Lookups = ReturnType<typeof createLookups>;

type Contact = { email: string | null; phone: string | null };

/** Where the channel reaches the learner: the phone or the e-mail, as the channel needs. */
export const addressOf = (channel: string, contact: Contact): string | null =>
  (CHANNEL_CONTACT[channel as TChannelKey] === 'phone' ? contact.phone : contact.email) ?? null;

/** The learner's channel identity the select found (null: none saved yet). */
const identityOf = (row: LessonSendRow): KnownIdentity | null =>
  row.identity_address !== null && row.provider_user_id !== null
    ? {
        address: row.identity_address,
        providerUserId: row.provider_user_id,
        conversationId: row.conversation_id,
        lastInboundAt: row.last_inbound_at,
      }
    : null;

/** A lesson, its reminder and its feedback carry the same content; only the kind differs. */
export const lessonMessage = (
  kind: 'lesson' | 'reminder' | 'feedback',
  adapter: ChannelAdapter,
  row: LessonSendRow,
  address: string,
  lesson: ChannelMessage['lesson'],
  totalDays: number,
): ChannelMessage => ({
  kind,
  channel: adapter.key,
  companyUuid: row.company_uuid,
  courseUuid: row.course_uuid,
  courseName: row.course_name,
  deliveryUuid: row.uuid,
  language: row.language as TLocale,
  recipient: {
    learnerUuid: row.learner_uuid,
    firstName: row.first_name,
    lastName: row.last_name,
    address,
    identity: identityOf(row),
  },
  lesson,
  totalDays,
});

/** The GDPR opt-in question, in the learner's language when the course has it. */
export const invitationMessage = (
  adapter: ChannelAdapter,
  row: InvitationRow,
  address: string,
  plan: CoursePlan,
): ChannelMessage => ({
  kind: 'invitation',
  channel: adapter.key,
  companyUuid: row.company_uuid,
  courseUuid: row.course_uuid,
  courseName: row.course_name,
  deliveryUuid: null,
  language: lessonLanguage(row.locale, plan),
  recipient: {
    learnerUuid: row.learner_uuid,
    firstName: row.first_name,
    lastName: row.last_name,
    address,
  },
  lesson: null,
  totalDays: plan.days.length,
});

/**
 * What an answer is told: a later answer that it no longer counts; else the chosen answer's
 * response and whether it was right (a choice question), or the thank-you message (an open
 * answer: the lesson's own, else the standard one).
 */
export const feedbackOf = (
  row: Pick<FeedbackRow, 'answer_index' | 'answer_correct' | 'feedback_status' | 'language'>,
  lesson: LessonContent | null,
  completion: Completion | null,
): Feedback => {
  if (row.feedback_status === 'repeat') return { kind: 'already_answered' };
  const assessment = lesson?.assessment ?? null;
  const thankYou = assessment?.thank_you_message || learnerTexts(row.language as TLocale).thankYou;
  if (!assessment || assessment.type === 'open_answer') {
    return { kind: 'answer', correct: null, text: thankYou, completion };
  }
  const chosen = row.answer_index === null ? undefined : assessment.answers[row.answer_index];
  return {
    kind: 'answer',
    correct: row.answer_correct === null ? null : row.answer_correct === 1,
    text: chosen?.response ?? '',
    completion,
  };
};
