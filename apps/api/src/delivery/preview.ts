import { CHANNEL_KEYS } from '@ccp/schemas';
import type {
  TChannelKey,
  TChannelPreview,
  TChannelPreviewIssue,
  TLocale,
  TPreviewLesson,
} from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import { GOOGLE_CHAT_MESSAGE_BYTES } from './channels/google-chat/render.ts';
import { SLACK_LIMITS } from './channels/slack/render.ts';
import { WHATSAPP_LIMITS } from './channels/whatsapp/render.ts';
import { renderPayload } from './render.ts';
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
      address: SAMPLE_ADDRESS[input.channel === 'whatsapp' ? 'phone' : 'email'],
    },
    lesson: toLessonContent(input.day, input.lesson),
    totalDays: input.totalDays,
  };
  return renderPayload(input.channel, message);
};

const bytesOf = (payload: RenderedPayload) => Buffer.byteLength(JSON.stringify(payload), 'utf8');
const partsOf = (payload: RenderedPayload): RenderedPayload[] => [
  payload,
  ...((payload.continued as RenderedPayload[] | undefined) ?? []),
];

/** How the rendered question offers its answers on WhatsApp: reply buttons, a list, or (null) numbers typed back. */
const whatsappAnswers = (payload: RenderedPayload): 'button' | 'list' | null => {
  const last = partsOf(payload).at(-1) as
    { type?: string; interactive?: { type?: string }; text?: { body?: string } } | undefined;
  if (last?.type === 'interactive') return last.interactive?.type === 'list' ? 'list' : 'button';
  return null;
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
  const issues: TChannelPreview['issues'] = [];
  const add = (code: TChannelPreviewIssue, params: Record<string, string | number>) =>
    issues.push({ code, message: t(lang, `server.preview.${code}`, params) });
  const name = t(lang, `server.preview.channels.${channel}`);
  const assessment = lesson.assessment;
  const answers =
    assessment && assessment.type !== 'open_answer' ? assessment.answers.map((a) => a.text) : [];
  if (channel === 'slack') {
    const max = SLACK_LIMITS.buttonText;
    if (answers.some((answer) => [...answer].length > max))
      add('buttonTextCut', { channel: name, max });
  }
  if (channel === 'whatsapp' && answers.length > 0) {
    const offered = whatsappAnswers(payload);
    if (offered === 'list') {
      add('answersInList', {
        channel: name,
        max: WHATSAPP_LIMITS.buttons,
        length: WHATSAPP_LIMITS.buttonTitle,
      });
    } else if (offered === null) {
      add('tooManyButtons', { channel: name, count: answers.length, max: WHATSAPP_LIMITS.buttons });
    }
  }
  if (channel === 'google-chat' && bytesOf(payload) > GOOGLE_CHAT_MESSAGE_BYTES) {
    add('textTooLong', { channel: name, max: GOOGLE_CHAT_MESSAGE_BYTES });
  }
  return issues;
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
