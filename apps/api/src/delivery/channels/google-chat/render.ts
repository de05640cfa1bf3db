import {
  choicesOf,
  closedAnswerLine,
  feedbackLines,
  formatHtml,
  learnerTexts,
  repeatedQuestions,
  subtitleOf,
  summaryOf,
} from '../../render-common.ts';
import type { TextStyle } from '../../render-common.ts';
import type { ChannelMessage, ClosedQuestion, RenderedPayload } from '../../message.ts';

// Google Chat: one message with a card (cardsV2) in the learner's DM space. The lesson's HTML
// becomes Chat's HTML subset; the answers are buttons whose action carries the delivery and the
// answer's index (Chat wraps long button texts); an open question asks for a reply message.
//
// A button's action names what it does in its parameters (`type`: answered, opted_in, declined),
// and its `function` is the HTTP endpoint URL the click is posted to: a Chat app built as a Google
// Workspace add-on runs no named function, its card actions give the endpoint's URL and tell
// actions apart by their parameters (https://developers.google.com/workspace/add-ons/chat/dialogs,
// `function: FUNCTION_URL` with an `actionName` parameter; Google's sample
// googleworkspace/add-ons-samples node/chat/contact-form-app). A classic Chat app passes the
// function on untouched (`common.invokedFunction`), so the URL serves both formats.

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Lesson HTML as the HTML subset a Chat card's text paragraph takes. */
export const CHAT_HTML: TextStyle = {
  bold: (text) => `<b>${text}</b>`,
  italic: (text) => `<i>${text}</i>`,
  link: (text, href) => `<a href="${escapeHtml(href)}">${text}</a>`,
  newline: '<br>',
  escape: escapeHtml,
};

/** What one Chat message may weigh (bytes of its JSON). */
export const GOOGLE_CHAT_MESSAGE_BYTES = 32_000;

/**
 * The cardsV2 message a lesson, reminder or invitation is posted as; `functionUrl` is the
 * endpoint Chat posts the connection's events to (absent, as in a preview: the action's name).
 */
export const renderGoogleChat = (
  message: ChannelMessage,
  {
    functionUrl,
    closed,
  }: {
    functionUrl?: string | null;
    /** The lesson's question once answered: the chosen answer in place of the buttons. */
    closed?: ClosedQuestion;
  } = {},
): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const paragraph = (text: string) => ({ textParagraph: { text } });
  const action = (text: string, type: string, parameters: Record<string, string>) => ({
    text,
    onClick: {
      action: {
        function: functionUrl ?? type,
        parameters: Object.entries({ type, ...parameters }).map(([key, value]) => ({
          key,
          value,
        })),
      },
    },
  });
  /** A question: its buttons (or a reply asked for), or once answered the answer chosen. */
  const questionSection = (
    asked: ChannelMessage,
    answered?: ClosedQuestion,
    from?: string,
  ): Record<string, unknown> => {
    const choices = choicesOf(asked.lesson);
    const answers = answered
      ? [paragraph(`<b>${escapeHtml(closedAnswerLine(answered))}</b>`)]
      : choices.length > 0
        ? [
            {
              buttonList: {
                buttons: choices.map((answer, index) =>
                  action(answer.text, 'answered', {
                    delivery_uuid: asked.deliveryUuid ?? '',
                    answer: String(index),
                  }),
                ),
              },
            },
          ]
        : [paragraph(escapeHtml(texts.openAnswer))];
    return {
      header: escapeHtml(asked.lesson?.assessment?.question ?? ''),
      widgets: [...(from ? [paragraph(`<i>${escapeHtml(from)}</i>`)] : []), ...answers],
    };
  };
  let header: Record<string, unknown>;
  const sections: Record<string, unknown>[] = [];
  if (message.kind === 'invitation') {
    header = { title: texts.invitationTitle(message.courseName) };
    sections.push({
      widgets: [
        paragraph(
          escapeHtml(texts.invitationText(message.recipient.firstName, message.courseName)),
        ),
        {
          buttonList: {
            buttons: [
              action(texts.join, 'opted_in', {
                course_uuid: message.courseUuid,
                learner_uuid: message.recipient.learnerUuid,
              }),
              action(texts.decline, 'declined', {
                course_uuid: message.courseUuid,
                learner_uuid: message.recipient.learnerUuid,
              }),
            ],
          },
        },
      ],
    });
  } else if (message.kind === 'feedback') {
    const [title = '', ...rest] = feedbackLines(message);
    header = { title, subtitle: message.courseName };
    if (rest.length > 0)
      sections.push({ widgets: rest.map((line) => paragraph(escapeHtml(line))) });
  } else if (message.kind === 'repeats') {
    header = { title: texts.repeatsTitle, subtitle: message.courseName };
    for (const { from, asked } of repeatedQuestions(message)) {
      sections.push(questionSection(asked, undefined, from));
    }
  } else if (message.kind === 'reminder') {
    header = { title: texts.reminderTitle, subtitle: message.courseName };
    sections.push({
      widgets: [paragraph(escapeHtml(texts.reminderText(message.courseName, lesson?.title ?? '')))],
    });
  } else {
    header = { title: lesson?.title ?? message.courseName, subtitle: subtitleOf(message, texts) };
    if (lesson) {
      const widgets: Record<string, unknown>[] = [
        paragraph(escapeHtml(lesson.topic_intro)),
        paragraph(formatHtml(lesson.topic_content, CHAT_HTML)),
      ];
      if (lesson.media) {
        widgets.push({
          buttonList: {
            buttons: [{ text: texts.media, onClick: { openLink: { url: lesson.media.url } } }],
          },
        });
      }
      sections.push({ widgets });
      if (lesson.assessment) sections.push(questionSection(message, closed));
    }
  }
  return {
    text: summaryOf(message),
    cardsV2: [
      {
        cardId: `${message.kind}-${message.deliveryUuid ?? message.courseUuid}`,
        card: { header, sections },
      },
    ],
  };
};
