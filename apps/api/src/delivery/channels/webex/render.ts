import {
  MARKDOWN,
  asOnePayload,
  answerAction,
  choicesOf,
  enrolmentAction,
  formatHtml,
  splitAtBreaks,
  learnerTexts,
  openAnswerInput,
  subtitleOf,
  summaryOf,
} from '../../render-common.ts';
import type { ChannelMessage, RenderedPayload } from '../../message.ts';

// Webex: POST /v1/messages with markdown (at most 7 439 bytes a message) and, for a question,
// an Adaptive Card 1.3 (Webex's version) with the answers as a choice set and one submit. A
// lesson longer than one message goes out as several, split at paragraphs, never cut.

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

/** The messages a lesson, reminder or invitation is sent as: markdown parts, the card on the last. */
export const renderWebexMessages = (message: ChannelMessage): RenderedPayload[] => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const lines: string[] = [];
  let attachment: Card | null = null;
  if (message.kind === 'invitation') {
    lines.push(`**${texts.invitationTitle(message.courseName)}**`);
    lines.push(texts.invitationText(message.recipient.firstName, message.courseName));
    attachment = card(
      [
        {
          type: 'TextBlock',
          text: texts.invitationTitle(message.courseName),
          wrap: true,
          weight: 'Bolder',
        },
      ],
      [
        { type: 'Action.Submit', title: texts.join, data: enrolmentAction(message, 'opted_in') },
        { type: 'Action.Submit', title: texts.decline, data: enrolmentAction(message, 'declined') },
      ],
    );
  } else if (message.kind === 'reminder') {
    lines.push(
      `**${texts.reminderTitle}**`,
      texts.reminderText(message.courseName, lesson?.title ?? ''),
    );
  } else if (lesson) {
    lines.push(`## ${lesson.title}`, `_${subtitleOf(message, texts)}_`, '', lesson.topic_intro, '');
    lines.push(formatHtml(lesson.topic_content, MARKDOWN));
    if (lesson.media) lines.push('', `[${texts.media}](${lesson.media.url})`);
    if (lesson.assessment) {
      lines.push('', '---', `**${texts.question}:** ${lesson.assessment.question}`);
      const choices = choicesOf(lesson);
      choices.forEach((answer, index) => lines.push(`${index + 1}. ${answer.text}`));
    }
    attachment = questionCard(message);
  }
  const parts = splitMarkdown(lines.join('\n'));
  return parts.map((markdown, index) => ({
    toPersonEmail: message.recipient.address,
    markdown,
    text: summaryOf(message),
    ...(attachment && index === parts.length - 1 ? { attachments: [attachment] } : {}),
  }));
};

/** The messages as one payload, the rest in `continued` (the outbox's record, the preview). */
export const renderWebex = (message: ChannelMessage): RenderedPayload =>
  asOnePayload(renderWebexMessages(message));
