import {
  answerCallback,
  asOnePayload,
  choicesOf,
  enrolmentCallback,
  feedbackLines,
  formatHtml,
  learnerTexts,
  repeatNumber,
  repeatedQuestions,
  repeatsLines,
  splitAtBreaks,
  subtitleOf,
  summaryOf,
  truncate,
} from '../../render-common.ts';
import type { TextStyle } from '../../render-common.ts';
import type { ChannelMessage, RenderedPayload } from '../../message.ts';

// WhatsApp Cloud API message objects. Outside the 24-hour customer-service window only an
// approved template may be sent: a short one ("New lesson: {{1}}") whose "Start" quick reply
// opens the window. Inside it the lesson goes as text (at most 4 096 characters a message, split
// at paragraphs, never cut) and the question as interactive reply buttons (≤ 3, titles ≤ 20),
// else a list (≤ 10 rows, titles ≤ 24, descriptions ≤ 72), else numbered replies.

/** Lesson HTML as WhatsApp's text, which has no link markup: a link is its text and its URL. */
export const WHATSAPP: TextStyle = {
  bold: (text) => `*${text}*`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `${text} (${href})`,
  newline: '\n',
};

export const WHATSAPP_LIMITS = {
  textBody: 4096,
  interactiveBody: 1024,
  buttons: 3,
  buttonTitle: 20,
  listRows: 10,
  rowTitle: 24,
  sectionTitle: 24,
  rowDescription: 72,
  listButton: 20,
  templateParam: 60,
} as const;

/** The 24-hour customer-service window after the learner's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the template's "Start" quick reply carries back. */
export const startCallback = (deliveryUuid: string | null) =>
  JSON.stringify({ type: 'start', delivery_uuid: deliveryUuid });

/** Text in parts of at most `max` characters, split at paragraphs, lines, then spaces. */
export const splitText = (text: string, max: number = WHATSAPP_LIMITS.textBody): string[] =>
  splitAtBreaks(text, max);

const envelope = (to: string, body: Record<string, unknown>): RenderedPayload => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  ...body,
});

const textMessage = (to: string, body: string) =>
  envelope(to, { type: 'text', text: { preview_url: true, body } });

/** The question as buttons, a list or numbered replies (whichever fits the limits). */
const questionMessages = (message: ChannelMessage): RenderedPayload[] => {
  const texts = learnerTexts(message.language);
  const assessment = message.lesson?.assessment;
  if (!assessment) return [];
  const to = message.recipient.address;
  const choices = choicesOf(message.lesson);
  const question = `*${texts.question}:* ${assessment.question}`;
  if (choices.length === 0) return [textMessage(to, `${question}\n\n${texts.openAnswer}`)];
  const numbered = choices.map((answer, index) => `${index + 1}. ${answer.text}`).join('\n');
  const fitsBody = question.length <= WHATSAPP_LIMITS.interactiveBody;
  const ids = choices.map((_, index) => answerCallback(message.deliveryUuid, index));
  if (
    fitsBody &&
    choices.length <= WHATSAPP_LIMITS.buttons &&
    choices.every((answer) => [...answer.text].length <= WHATSAPP_LIMITS.buttonTitle)
  ) {
    return [
      envelope(to, {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: question },
          action: {
            buttons: choices.map((answer, index) => ({
              type: 'reply',
              reply: { id: ids[index], title: answer.text },
            })),
          },
        },
      }),
    ];
  }
  const withNumbers = `${question}\n\n${numbered}`;
  if (
    withNumbers.length <= WHATSAPP_LIMITS.interactiveBody &&
    choices.length <= WHATSAPP_LIMITS.listRows
  ) {
    // The rows name each answer by its number (the full answers are in the body above), with
    // as much of the answer as a row description holds.
    return [
      envelope(to, {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: withNumbers },
          action: {
            button: truncate(texts.send, WHATSAPP_LIMITS.listButton),
            sections: [
              {
                rows: choices.map((answer, index) => ({
                  id: ids[index],
                  title: String(index + 1),
                  description: truncate(answer.text, WHATSAPP_LIMITS.rowDescription),
                })),
              },
            ],
          },
        },
      }),
    ];
  }
  return splitText(`${withNumbers}\n\n${texts.numberedAnswer}`).map((part) =>
    textMessage(to, part),
  );
};

/**
 * A day's questions asked again (issue 28), as one message: a list with a section per question
 * when every question is a choice and all fit (≤ 10 rows, the body ≤ 1 024); else one text
 * (split only past 4 096) with the answers numbered, answered by typing (inbound.ts replyAction
 * takes the questions in order).
 */
const repeatsMessages = (message: ChannelMessage): RenderedPayload[] => {
  const texts = learnerTexts(message.language);
  const to = message.recipient.address;
  const questions = repeatedQuestions(message);
  const body = repeatsLines(message, (line) => `*${line}*`).join('\n');
  const rows = questions.flatMap(({ asked }) => choicesOf(asked.lesson));
  const allChoices = questions.every(({ asked }) => choicesOf(asked.lesson).length > 0);
  if (
    !allChoices ||
    rows.length > WHATSAPP_LIMITS.listRows ||
    body.length > WHATSAPP_LIMITS.interactiveBody
  ) {
    return splitText(`${body}\n\n${texts.numberedAnswer}`).map((part) => textMessage(to, part));
  }
  return [
    envelope(to, {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: body },
        action: {
          button: truncate(texts.send, WHATSAPP_LIMITS.listButton),
          sections: questions.map(({ asked }, number) => ({
            title: truncate(repeatNumber(texts, number), WHATSAPP_LIMITS.sectionTitle),
            rows: choicesOf(asked.lesson).map((answer, index) => ({
              id: answerCallback(asked.deliveryUuid, index),
              title: String(index + 1),
              description: truncate(answer.text, WHATSAPP_LIMITS.rowDescription),
            })),
          })),
        },
      },
    }),
  ];
};

/** The messages inside the window: the lesson's text parts, then its question. */
export const renderWhatsAppSession = (message: ChannelMessage): RenderedPayload[] => {
  const texts = learnerTexts(message.language);
  const to = message.recipient.address;
  const { lesson } = message;
  if (message.kind === 'invitation') {
    return [
      envelope(to, {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: {
            text: truncate(
              `*${texts.invitationTitle(message.courseName)}*\n${texts.invitationText(message.recipient.firstName, message.courseName)}`,
              WHATSAPP_LIMITS.interactiveBody,
            ),
          },
          action: {
            buttons: [
              {
                type: 'reply',
                reply: {
                  id: enrolmentCallback(message, 'opted_in'),
                  title: truncate(texts.join, WHATSAPP_LIMITS.buttonTitle),
                },
              },
              {
                type: 'reply',
                reply: {
                  id: enrolmentCallback(message, 'declined'),
                  title: truncate(texts.decline, WHATSAPP_LIMITS.buttonTitle),
                },
              },
            ],
          },
        },
      }),
    ];
  }
  if (message.kind === 'feedback') {
    const [title = '', ...rest] = feedbackLines(message);
    return splitText([`*${title}*`, ...rest].join('\n')).map((part) => textMessage(to, part));
  }
  if (message.kind === 'repeats') return repeatsMessages(message);
  if (message.kind === 'reminder') {
    return splitText(
      `*${texts.reminderTitle}*\n${texts.reminderText(message.courseName, lesson?.title ?? '')}`,
    ).map((part) => textMessage(to, part));
  }
  if (!lesson) return [];
  const lines = [
    `*${lesson.title}*`,
    `_${subtitleOf(message, texts)}_`,
    '',
    lesson.topic_intro,
    '',
  ];
  lines.push(formatHtml(lesson.topic_content, WHATSAPP));
  if (lesson.media) lines.push('', `${texts.media}: ${lesson.media.url}`);
  return [
    ...splitText(lines.join('\n')).map((part) => textMessage(to, part)),
    ...questionMessages(message),
  ];
};

/** The session messages as one payload, the rest in `continued` (the outbox's record, the preview). */
export const renderWhatsApp = (message: ChannelMessage): RenderedPayload =>
  asOnePayload(renderWhatsAppSession(message));

// Template parameters may not hold new lines, tabs or more than four spaces in a row.
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * An approved template message: its one body parameter (on one line, within the parameter limit)
 * and the payloads its quick-reply buttons carry back, in the buttons' order.
 */
const templateMessage = (
  message: ChannelMessage,
  templateName: string,
  bodyText: string,
  replies: readonly string[],
): RenderedPayload =>
  envelope(message.recipient.address, {
    type: 'template',
    template: {
      name: templateName,
      language: { code: message.language },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: truncate(oneLine(bodyText), WHATSAPP_LIMITS.templateParam) },
          ],
        },
        ...replies.map((payload, index) => ({
          type: 'button',
          sub_type: 'quick_reply',
          index: String(index),
          parameters: [{ type: 'payload', payload }],
        })),
      ],
    },
  });

/** Outside the window: the approved template "New lesson: {{1}}" with its "Start" reply. */
export const renderWhatsAppTemplate = (
  message: ChannelMessage,
  templateName: string,
): RenderedPayload =>
  templateMessage(message, templateName, summaryOf(message), [startCallback(message.deliveryUuid)]);

/**
 * An invitation outside the window: the approved invitation template ("{{1}}" the course's name)
 * with its two quick replies, Join (index 0) and Decline (index 1), carrying back the opt-in
 * answer itself, so one tap enrols or declines without waiting for the window.
 */
export const renderWhatsAppInvitationTemplate = (
  message: ChannelMessage,
  templateName: string,
): RenderedPayload =>
  templateMessage(message, templateName, message.courseName, [
    enrolmentCallback(message, 'opted_in'),
    enrolmentCallback(message, 'declined'),
  ]);
