import { CHANNEL_KEYS, CHANNEL_LIMITS } from '@ccp/schemas';
import type {
  TChannelKey,
  TChannelPreview,
  TChannelPreviewIssue,
  TLocale,
  TPreviewLesson,
} from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import { renderPayload } from './render.ts';
import type { ChannelMessage, LessonContent, RenderedPayload } from './render.ts';

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

const byteLength = (value: string) => Buffer.byteLength(value, 'utf8');
const charCount = (value: string) => [...value].length;

type TWhatsAppBody = {
  template?: { components?: { type: string; parameters?: { text?: string }[] }[] };
};

/** The text a channel carries in its main message body, as the renderer laid it out. */
const bodyText = (channel: TChannelKey, payload: RenderedPayload): string => {
  if (channel === 'whatsapp') {
    return ((payload as TWhatsAppBody).template?.components ?? [])
      .filter((component) => component.type === 'body')
      .flatMap((component) => (component.parameters ?? []).map((parameter) => parameter.text ?? ''))
      .join('');
  }
  if (channel === 'webex') return (payload as { markdown?: string }).markdown ?? '';
  return JSON.stringify(payload);
};

/** What `channel` cannot carry of this lesson as written, in the creator's language. */
export const previewIssues = (
  channel: TChannelKey,
  lesson: TPreviewLesson,
  payload: RenderedPayload,
  lang: TLocale,
): TChannelPreview['issues'] => {
  const limits = CHANNEL_LIMITS[channel];
  const issues: TChannelPreview['issues'] = [];
  const add = (code: TChannelPreviewIssue, params: Record<string, string | number>) =>
    issues.push({ code, message: t(lang, `server.preview.${code}`, params) });
  const name = t(lang, `server.preview.channels.${channel}`);
  const assessment = lesson.assessment;
  const answers =
    assessment && assessment.type !== 'open_answer' ? assessment.answers.map((a) => a.text) : [];
  if (limits.buttons !== null && answers.length > limits.buttons) {
    add('tooManyButtons', { channel: name, count: answers.length, max: limits.buttons });
  }
  if (limits.buttonText !== null) {
    const max = limits.buttonText;
    answers.forEach((answer, index) => {
      if (charCount(answer) > max) add('buttonTextCut', { channel: name, option: index + 1, max });
    });
  }
  if (limits.title !== null && charCount(lesson.title) > limits.title) {
    add('titleCut', { channel: name, max: limits.title });
  }
  const body = bodyText(channel, payload);
  // Slack limits each section (the content is one); the others the whole message or body.
  const measured =
    channel === 'slack'
      ? Math.max(charCount(lesson.topic_intro), charCount(lesson.topic_content))
      : channel === 'whatsapp'
        ? charCount(body)
        : byteLength(body);
  if (measured > limits.text) add('textTooLong', { channel: name, max: limits.text });
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
