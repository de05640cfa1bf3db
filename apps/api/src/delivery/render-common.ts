import type { TLocale } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import type {
  ChannelMessage,
  ClosedQuestion,
  LessonContent,
  Notice,
  RenderedPayload,
} from './message.ts';

// What every channel's renderer shares: the learner's words in each language,
// lesson HTML as each channel's rich text, and what answer buttons carry back.

/** The longest open answer kept, and a card's text input takes (a WhatsApp message: 4 096). */
export const OPEN_ANSWER_MAX = 4096;

/** Messages sent one after the other as one payload: the first, the others in `continued`. */
export const asOnePayload = (parts: RenderedPayload[]): RenderedPayload => {
  const [first, ...rest] = parts;
  return rest.length > 0 ? { ...first, continued: rest } : (first ?? {});
};

/** An Adaptive Card's text input for an open answer (Teams, Webex): required, within the limit. */
export const openAnswerInput = (placeholder: string) => ({
  type: 'Input.Text',
  id: 'text',
  isMultiline: true,
  isRequired: true,
  maxLength: OPEN_ANSWER_MAX,
  placeholder,
});

export type LearnerTexts = {
  day: (day: number, total: number) => string;
  minutes: (minutes: number) => string;
  question: string;
  send: string;
  openAnswer: string;
  numberedAnswer: string;
  media: string;
  reminderTitle: string;
  reminderText: (course: string, title: string) => string;
  invitationTitle: (course: string) => string;
  invitationText: (firstName: string, course: string) => string;
  join: string;
  decline: string;
  feedbackRight: string;
  feedbackWrong: string;
  thankYou: string;
  alreadyAnswered: string;
  completion: (course: string, right: number, answered: number) => string;
  notice: Record<Notice, (course: string) => string>;
  yourAnswer: (answer: string) => string;
  answerReceived: string;
  repeatsTitle: string;
  repeatFrom: (course: string, day: number, title: string) => string;
};

/** The words around a lesson in the learner's language (`server.channel.*` in locales/server). */
const textsFor = (lang: TLocale): LearnerTexts => ({
  day: (day, total) => t(lang, 'server.channel.day', { day, total }),
  minutes: (minutes) => t(lang, 'server.channel.minutes', { minutes }),
  question: t(lang, 'server.channel.question'),
  send: t(lang, 'server.channel.send'),
  openAnswer: t(lang, 'server.channel.openAnswer'),
  numberedAnswer: t(lang, 'server.channel.numberedAnswer'),
  media: t(lang, 'server.channel.media'),
  reminderTitle: t(lang, 'server.channel.reminderTitle'),
  reminderText: (course, title) => t(lang, 'server.channel.reminderText', { course, title }),
  invitationTitle: (course) => t(lang, 'server.channel.invitationTitle', { course }),
  invitationText: (name, course) => t(lang, 'server.channel.invitationText', { name, course }),
  join: t(lang, 'server.channel.join'),
  decline: t(lang, 'server.channel.decline'),
  feedbackRight: t(lang, 'server.channel.feedbackRight'),
  feedbackWrong: t(lang, 'server.channel.feedbackWrong'),
  thankYou: t(lang, 'server.channel.thankYou'),
  alreadyAnswered: t(lang, 'server.channel.alreadyAnswered'),
  completion: (course, right, answered) =>
    t(lang, 'server.channel.completion', { course, right, answered }),
  notice: {
    paused: (course) => t(lang, 'server.channel.noticePaused', { course }),
    resumed: (course) => t(lang, 'server.channel.noticeResumed', { course }),
    stopped: (course) => t(lang, 'server.channel.noticeStopped', { course }),
  },
  yourAnswer: (answer) => t(lang, 'server.channel.yourAnswer', { answer }),
  answerReceived: t(lang, 'server.channel.answerReceived'),
  repeatsTitle: t(lang, 'server.channel.repeatsTitle'),
  repeatFrom: (course, day, title) => t(lang, 'server.channel.repeatFrom', { course, day, title }),
});

const TEXTS: Record<TLocale, LearnerTexts> = {
  en: textsFor('en'),
  it: textsFor('it'),
  de: textsFor('de'),
};

export const learnerTexts = (language: TLocale): LearnerTexts => TEXTS[language];

// --- Lesson HTML to each channel's text format ------------------------------------------------

export type TextStyle = {
  bold: (text: string) => string;
  italic: (text: string) => string;
  link: (text: string, href: string) => string;
  newline: string;
  /** Escapes plain text for the format (HTML for Google Chat). */
  escape?: (text: string) => string;
};

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const decode = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (!body.startsWith('#')) return ENTITIES[body.toLowerCase()] ?? entity;
    const hex = body[1] === 'x' || body[1] === 'X';
    const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff
      ? String.fromCodePoint(code)
      : entity;
  });

// Private-use characters mark the tokens: lesson HTML never means them.
const TOKEN = /\uE000(\d+)\uE001/g;
const HAS_TOKEN = /\uE000\d+\uE001/;

// The innermost list: an <ol> or <ul> with no other list inside it.
const INNERMOST_LIST = /<(ol|ul)\b([^>]*)>((?:(?!<(?:ol|ul)\b)[\s\S])*?)<\/\1\s*>/i;
const LIST_ITEM = /<li\b[^>]*>([\s\S]*?)(?:<\/li\s*>|(?=<li\b)|$)/gi;
// Under its marker: "1. " and "• " take three columns, so a nested list or a second paragraph
// lines up with the item's text.
const ITEM_INDENT = '   ';

/**
 * Lists as lines: each item on its own line (its paragraphs joined by line breaks, no blank line
 * between items), "1." "2." … for an ordered list from its `start`, "•" for a bulleted one, and a
 * nested list indented under its item. Innermost lists first, so nesting works out by itself.
 */
const listsAsLines = (html: string): string => {
  let out = html;
  for (let match = INNERMOST_LIST.exec(out); match; match = INNERMOST_LIST.exec(out)) {
    const [whole, kind = 'ul', attributes = '', body = ''] = match;
    const start = Number(/\bstart\s*=\s*"?(-?\d+)/i.exec(attributes)?.[1] ?? 1);
    const items = [...body.matchAll(LIST_ITEM)].map((item) =>
      (item[1] ?? '')
        .replace(/<\/(p|div)>\s*<(p|div)\b[^>]*>/gi, '\n')
        .replace(/<\/?(p|div)\b[^>]*>/gi, '')
        .replace(/<br\s*\/?>/gi, '\n')
        .trim()
        .split('\n')
        .map((line) => line.trim())
        .filter((line, index) => index === 0 || line !== ''),
    );
    const lines = items.map((item, index) => {
      const marker = kind.toLowerCase() === 'ol' ? `${start + index}. ` : '• ';
      return [`${marker}${item[0] ?? ''}`, ...item.slice(1).map((line) => ITEM_INDENT + line)].join(
        '\n',
      );
    });
    out = `${out.slice(0, match.index)}\n${lines.join('\n')}\n\n${out.slice(match.index + whole.length)}`;
  }
  return out;
};

/** Lesson HTML (paragraphs, lists, bold, italic, links) as a channel's rich text. */
export const formatHtml = (html: string, style: TextStyle): string => {
  // Formatted pieces wait as tokens, so the tag stripping below cannot eat `<url|text>` or `<b>`.
  const pieces: string[] = [];
  const keep = (formatted: string) => `\uE000${pieces.push(formatted) - 1}\uE001`;
  const escape = style.escape ?? ((text: string) => text);
  const inline = (text: string) => escape(decode(text.replace(/<[^>]*>/g, '')));
  const text = listsAsLines(
    html
      .replace(/[\uE000\uE001]/g, '')
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<!--[\s\S]*?-->/g, ''),
  )
    .replace(
      /<a\b[^>]*href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
      (_, href: string, inner: string) => keep(style.link(inline(inner), decode(href))),
    )
    .replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1>/gi, (_, __, inner: string) =>
      keep(style.bold(inline(inner))),
    )
    .replace(/<(em|i)\b[^>]*>([\s\S]*?)<\/\1>/gi, (_, __, inner: string) =>
      keep(style.italic(inline(inner))),
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6])>/gi, '\n\n')
    .replace(/<\/?[a-z][^>]*>/gi, '');
  let out = escape(
    decode(text)
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  ).replace(/\n/g, style.newline);
  // Pieces may nest (a link in bold): restore until none is left.
  while (HAS_TOKEN.test(out))
    out = out.replace(TOKEN, (_, index: string) => pieces[Number(index)] ?? '');
  return out;
};

export const MARKDOWN: TextStyle = {
  bold: (text) => `**${text}**`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `[${text}](${href})`,
  newline: '\n',
};

/**
 * Text in parts of at most `max` (as `measure` counts: characters, bytes), split at blank lines,
 * lines, then spaces, never losing a character: how channels with a message limit degrade.
 */
export const splitAtBreaks = (
  text: string,
  max: number,
  measure: (part: string) => number = (part) => part.length,
): string[] => {
  const parts: string[] = [];
  let rest = text;
  while (measure(rest) > max) {
    let end = rest.length;
    while (measure(rest.slice(0, end)) > max) end = Math.floor(end * 0.9);
    const head = rest.slice(0, end);
    let cut = -1;
    for (const separator of ['\n\n', '\n', ' ']) {
      const at = head.lastIndexOf(separator);
      if (at > end / 2) {
        cut = at;
        break;
      }
    }
    if (cut <= 0) cut = end;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) parts.push(rest);
  return parts;
};

export const truncate = (text: string, max: number) =>
  [...text].length <= max ? text : `${[...text].slice(0, max - 1).join('')}…`;

/** What a channel button carries back, so the connector can report the answer event. */
export const answerAction = (deliveryUuid: string | null, index: number) => ({
  type: 'answered',
  delivery_uuid: deliveryUuid,
  answer: index,
});
export const enrolmentAction = (message: ChannelMessage, type: 'opted_in' | 'declined') => ({
  type,
  course_uuid: message.courseUuid,
  learner_uuid: message.recipient.learnerUuid,
});
/** The same, as the string value Slack buttons and WhatsApp quick replies take. */
export const answerCallback = (deliveryUuid: string | null, index: number) =>
  JSON.stringify(answerAction(deliveryUuid, index));
export const enrolmentCallback = (message: ChannelMessage, type: 'opted_in' | 'declined') =>
  JSON.stringify(enrolmentAction(message, type));

export const choicesOf = (lesson: LessonContent | null) =>
  lesson?.assessment && lesson.assessment.type !== 'open_answer' ? lesson.assessment.answers : [];

export const subtitleOf = (message: ChannelMessage, texts: LearnerTexts) =>
  message.lesson
    ? `${message.courseName} · ${texts.day(message.lesson.day, message.totalDays)} · ${texts.minutes(message.lesson.learning_minutes)}`
    : message.courseName;

/**
 * What an answered question shows in place of its buttons (issue 28): the chosen answer, marked
 * right or wrong, or for an open answer that it arrived.
 */
export const closedAnswerLine = (question: ClosedQuestion): string => {
  const texts = learnerTexts(question.message.language);
  const index = question.answerIndex;
  const chosen = index === null ? undefined : choicesOf(question.message.lesson)[index];
  if (!chosen) return texts.answerReceived;
  return `${chosen.correct ? '✅' : '❌'} ${texts.yourAnswer(chosen.text)}`;
};

/** A plain one-line summary, the fallback text channels show in notifications. */
export const summaryOf = (message: ChannelMessage): string => {
  const texts = learnerTexts(message.language);
  if (message.kind === 'invitation') return texts.invitationTitle(message.courseName);
  if (message.kind === 'reminder') return texts.reminderTitle;
  if (message.kind === 'feedback') return feedbackLines(message)[0] ?? message.courseName;
  if (message.kind === 'repeats') return `${texts.repeatsTitle} (${message.courseName})`;
  return `${message.lesson?.title ?? message.courseName} (${message.courseName})`;
};

/**
 * A feedback message as plain lines, in the learner's language (each channel sets them in its own
 * format): the verdict (right, not quite; none for an open answer), the response or thank-you
 * text, and on the last lesson the completion.
 */
export const feedbackLines = (message: ChannelMessage): string[] => {
  const texts = learnerTexts(message.language);
  const feedback = message.feedback;
  if (!feedback) return [];
  if (feedback.kind === 'already_answered') return [texts.alreadyAnswered];
  if (feedback.kind === 'notice') return [texts.notice[feedback.notice](message.courseName)];
  const verdict =
    feedback.correct === null ? [] : [feedback.correct ? texts.feedbackRight : texts.feedbackWrong];
  const { completion } = feedback;
  return [
    ...verdict,
    feedback.text,
    ...(completion
      ? [texts.completion(message.courseName, completion.right, completion.answered)]
      : []),
  ].filter((line) => line !== '');
};

// --- A day's questions asked again, in one message (issue 28) ----------------------------------

/** A question of a `repeats` message: where it is from, and the lesson message that asked it. */
export type RepeatedQuestion = { from: string; asked: ChannelMessage };

/**
 * A `repeats` message's questions with an assessment, each as the lesson message it asks again
 * (so a channel renders its answers as it does a lesson's, under that lesson's send), with the
 * line naming the course, day and lesson it is from.
 */
export const repeatedQuestions = (message: ChannelMessage): RepeatedQuestion[] => {
  const texts = learnerTexts(message.language);
  return (message.repeats ?? [])
    .filter((question) => question.lesson.assessment)
    .map((question) => ({
      from: texts.repeatFrom(message.courseName, question.lesson.day, question.lesson.title),
      asked: {
        ...message,
        kind: 'lesson',
        deliveryUuid: question.deliveryUuid,
        lesson: question.lesson,
        repeats: undefined,
      },
    }));
};

/**
 * The inputs of a card asking several questions (Teams, Webex), one per question, named by the
 * question's lesson send: a submit carries every input of the card, and parseAction reads the
 * one of the send its data names.
 */
export const answerInputId = (deliveryUuid: string) => `answer:${deliveryUuid}`;
export const textInputId = (deliveryUuid: string) => `text:${deliveryUuid}`;

/**
 * The body of an Adaptive Card asking a day's repeated questions (Teams 1.5, Webex 1.3): the
 * title, then per question a container with where it is from, the question, its answers (a
 * choice set, or a text input) and its own Send. Nothing is required: answering one question
 * must not wait for the other.
 */
export const repeatsCardBody = (message: ChannelMessage): Record<string, unknown>[] => {
  const texts = learnerTexts(message.language);
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: texts.repeatsTitle, wrap: true, weight: 'Bolder', size: 'Medium' },
  ];
  for (const { from, asked } of repeatedQuestions(message)) {
    const uuid = asked.deliveryUuid ?? '';
    const choices = choicesOf(asked.lesson);
    const input =
      choices.length > 0
        ? {
            type: 'Input.ChoiceSet',
            id: answerInputId(uuid),
            style: 'expanded',
            isRequired: false,
            choices: choices.map((answer, index) => ({ title: answer.text, value: String(index) })),
          }
        : { ...openAnswerInput(texts.openAnswer), id: textInputId(uuid), isRequired: false };
    const { answer: _index, ...data } = answerAction(uuid, 0);
    body.push({
      type: 'Container',
      separator: true,
      items: [
        { type: 'TextBlock', text: from, wrap: true, isSubtle: true },
        {
          type: 'TextBlock',
          text: asked.lesson?.assessment?.question ?? '',
          wrap: true,
          weight: 'Bolder',
        },
        input,
        { type: 'ActionSet', actions: [{ type: 'Action.Submit', title: texts.send, data }] },
      ],
    });
  }
  return body;
};

/** "Question 1", "Question 2": how a message of several questions tells them apart. */
export const repeatNumber = (texts: LearnerTexts, index: number) =>
  `${texts.question} ${index + 1}`;

/**
 * A day's repeated questions as plain lines (WhatsApp's text, Webex's fallback): the title, then
 * each question with where it is from and its numbered answers, and how to answer by typing.
 */
export const repeatsLines = (
  message: ChannelMessage,
  bold: (text: string) => string = (text) => text,
): string[] => {
  const texts = learnerTexts(message.language);
  const lines = [bold(texts.repeatsTitle)];
  for (const [index, { from, asked }] of repeatedQuestions(message).entries()) {
    const choices = choicesOf(asked.lesson);
    const question = asked.lesson?.assessment?.question ?? '';
    lines.push('', from, bold(`${repeatNumber(texts, index)}: ${question}`));
    lines.push(...choices.map((answer, index) => `${index + 1}. ${answer.text}`));
    if (choices.length === 0) lines.push(texts.openAnswer);
  }
  return lines;
};
