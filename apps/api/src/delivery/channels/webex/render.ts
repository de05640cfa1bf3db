import {
  MARKDOWN,
  answerAction,
  asOnePayload,
  choicesOf,
  closedAnswerLine,
  enrolmentAction,
  feedbackLines,
  formatHtml,
  learnerTexts,
  openAnswerInput,
  repeatsCardBody,
  repeatsLines,
  splitAtBreaks,
  subtitleOf,
  summaryOf,
} from '../../render-common.ts';
import type { ChannelMessage, ClosedQuestion, RenderedPayload } from '../../message.ts';

// Webex: POST /v1/messages with markdown (at most 7 439 bytes a message) and, for a question,
// an Adaptive Card 1.3 (Webex's version) with the answers as a choice set and one submit. The
// lesson's text and its question card are separate messages: Webex clients that render a card
// show the card instead of the message's text (the text is only the fallback for clients without
// cards), so a card never carries the lesson. A lesson longer than one message goes out as
// several, split at paragraphs, never cut; the card comes last, with the question as its fallback.

export const WEBEX_LIMITS = { markdownBytes: 7439, cardVersion: '1.3' } as const;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Markdown in parts of at most `max` bytes, split at blank lines, lines, then spaces. */
export const splitMarkdown = (text: string, max: number = WEBEX_LIMITS.markdownBytes): string[] =>
  splitAtBreaks(text, max, bytes);

type Card = Record<string, unknown>;

const card = (body: Record<string, unknown>[], actions: Record<string, unknown>[]): Card => ({
  contentType: 'application/vnd.microsoft.card.adaptive',
  content: {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: WEBEX_LIMITS.cardVersion,
    body,
    actions,
  },
});

const questionCard = (message: ChannelMessage): Card | null => {
  const texts = learnerTexts(message.language);
  const assessment = message.lesson?.assessment;
  if (!assessment) return null;
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: assessment.question, wrap: true, weight: 'Bolder' },
  ];
  const choices = choicesOf(message.lesson);
  if (choices.length > 0) {
    body.push({
      type: 'Input.ChoiceSet',
      id: 'answer',
      style: 'expanded',
      isRequired: true,
      choices: choices.map((answer, index) => ({ title: answer.text, value: String(index) })),
    });
  } else {
    body.push(openAnswerInput(texts.openAnswer));
  }
  const { answer: _index, ...data } = answerAction(message.deliveryUuid, 0);
  return card(body, [{ type: 'Action.Submit', title: texts.send, data }]);
};

/** The card message's fallback (clients without cards): within one message, never empty. */
const fallbackOf = (markdown: string) => splitMarkdown(markdown)[0] ?? markdown;

/** The question and its numbered answers, as markdown (the card's fallback). */
const questionMarkdown = (message: ChannelMessage): string => {
  const texts = learnerTexts(message.language);
  const lines = [`**${texts.question}:** ${message.lesson?.assessment?.question ?? ''}`];
  choicesOf(message.lesson).forEach((answer, index) => lines.push(`${index + 1}. ${answer.text}`));
  return lines.join('\n');
};

const textMessages = (message: ChannelMessage, markdown: string): RenderedPayload[] =>
  splitMarkdown(markdown).map((part) => ({
    toPersonEmail: message.recipient.address,
    markdown: part,
  }));

const cardMessage = (message: ChannelMessage, fallback: string, attachment: Card) => ({
  toPersonEmail: message.recipient.address,
  markdown: fallbackOf(fallback),
  attachments: [attachment],
});

/**
 * The messages a lesson, reminder or invitation is sent as, in order: the lesson's markdown parts,
 * then its question card (a message of its own); an invitation is one card that carries its whole
 * text, the same text as the fallback.
 */
export const renderWebexMessages = (message: ChannelMessage): RenderedPayload[] => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  if (message.kind === 'invitation') {
    const title = texts.invitationTitle(message.courseName);
    const text = texts.invitationText(message.recipient.firstName, message.courseName);
    const invitation = card(
      [
        { type: 'TextBlock', text: title, wrap: true, weight: 'Bolder' },
        { type: 'TextBlock', text, wrap: true },
      ],
      [
        { type: 'Action.Submit', title: texts.join, data: enrolmentAction(message, 'opted_in') },
        { type: 'Action.Submit', title: texts.decline, data: enrolmentAction(message, 'declined') },
      ],
    );
    return [cardMessage(message, `**${title}**\n${text}`, invitation)];
  }
  if (message.kind === 'feedback') {
    const [title = '', ...rest] = feedbackLines(message);
    return textMessages(message, [`**${title}**`, ...rest].join('\n'));
  }
  if (message.kind === 'repeats') {
    // One card with every question, each with its own Send; the fallback lists them numbered.
    const fallback = repeatsLines(message, (line) => `**${line}**`).join('\n');
    return [cardMessage(message, fallback, card(repeatsCardBody(message), []))];
  }
  if (message.kind === 'reminder') {
    return textMessages(
      message,
      [
        `**${texts.reminderTitle}**`,
        texts.reminderText(message.courseName, lesson?.title ?? ''),
      ].join('\n'),
    );
  }
  if (!lesson) return textMessages(message, summaryOf(message));
  const lines = [
    `## ${lesson.title}`,
    `_${subtitleOf(message, texts)}_`,
    '',
    lesson.topic_intro,
    '',
  ];
  lines.push(formatHtml(lesson.topic_content, MARKDOWN));
  if (lesson.media) lines.push('', `[${texts.media}](${lesson.media.url})`);
  const question = questionCard(message);
  return [
    ...textMessages(message, lines.join('\n')),
    ...(question ? [cardMessage(message, questionMarkdown(message), question)] : []),
  ];
};

/** The messages as one payload, the rest in `continued` (the outbox's record, the preview). */
export const renderWebex = (message: ChannelMessage): RenderedPayload =>
  asOnePayload(renderWebexMessages(message));

/**
 * The question once answered (issue 28), posted in place of its card, which is deleted (a card
 * cannot be edited): the question and the chosen answer, marked, as markdown without buttons.
 */
export const renderWebexClosed = (question: ClosedQuestion): RenderedPayload => {
  const { message } = question;
  const texts = learnerTexts(message.language);
  return {
    toPersonEmail: message.recipient.address,
    markdown: [
      `**${texts.question}:** ${message.lesson?.assessment?.question ?? ''}`,
      `**${closedAnswerLine(question)}**`,
    ].join('\n'),
  };
};
