import { CHANNEL_KEYS } from '@ccp/schemas';
import type { TChannelKey, TChannelPreview, TLocale, TPreviewLesson } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import { CHANNELS } from './channels/index.ts';
import type { ChannelMessage, LessonContent, RenderedPayload } from './message.ts';

// The channel preview of the wizard: a lesson rendered for each channel by the scheduler's own
// renderer (one call, renderLessonFor), and what a channel cannot carry as written.

/** The learner a preview is addressed to: placeholders, never a real person. */
const SAMPLE_RECIPIENT = {
  learnerUuid: '00000000-0000-4000-8000-000000000000',
  firstName: 'Alex',
  lastName: 'Example',
};
const SAMPLE_ADDRESS: Record<'email' | 'phone', string> = {
  email: 'learner@example.com',
  phone: '+390000000000',
};

export type LessonPreviewInput = {
  channel: TChannelKey;
  language: TLocale;
  courseUuid: string;
  companyUuid: string;
  courseName: string;
  day: number;
  totalDays: number;
  lesson: TPreviewLesson;
};

const toLessonContent = (day: number, lesson: TPreviewLesson): LessonContent => ({
  day,
  title: lesson.title,
  topic_intro: lesson.topic_intro,
  topic_content: lesson.topic_content,
  learning_minutes: lesson.learning_minutes,
  media: lesson.media ?? null,
  assessment: lesson.assessment ?? null,
});

/** The payload the scheduler would send for this lesson on `channel`: the renderer's own. */
export const renderLessonFor = (input: LessonPreviewInput): RenderedPayload => {
  const message: ChannelMessage = {
    kind: 'lesson',
    channel: input.channel,
    companyUuid: input.companyUuid,
    courseUuid: input.courseUuid,
    courseName: input.courseName,
    deliveryUuid: null,
    language: input.language,
    recipient: {
      ...SAMPLE_RECIPIENT,
      address: SAMPLE_ADDRESS[CHANNELS[input.channel].contact],
    },
    lesson: toLessonContent(input.day, input.lesson),
    totalDays: input.totalDays,
  };
  return CHANNELS[input.channel].render(message);
};

/**
 * What `channel` cannot carry of this lesson as written, in the creator's language, read off the
 * payload its renderer made: the renderers split long texts rather than cut them, so what is
 * left to say is how answers that do not fit as buttons are offered, and a message over a
 * provider's size that nothing splits.
 */
export const previewIssues = (
  channel: TChannelKey,
  lesson: TPreviewLesson,
  payload: RenderedPayload,
  lang: TLocale,
): TChannelPreview['issues'] => {
  const name = t(lang, `server.preview.channels.${channel}`);
  const assessment = lesson.assessment;
  const answers =
    assessment && assessment.type !== 'open_answer' ? assessment.answers.map((a) => a.text) : [];
  const issues = CHANNELS[channel].previewIssues?.({ answers }, payload) ?? [];
  return issues.map(({ code, params }) => ({
    code,
    message: t(lang, `server.preview.${code}`, { channel: name, ...params }),
  }));
};

/** The lesson as each of the five channels would receive it. */
export const previewLesson = (
  input: Omit<LessonPreviewInput, 'channel'>,
  lang: TLocale,
): TChannelPreview[] =>
  CHANNEL_KEYS.map((channel) => {
    const payload = renderLessonFor({ ...input, channel });
    return { channel, payload, issues: previewIssues(channel, input.lesson, payload, lang) };
  });
