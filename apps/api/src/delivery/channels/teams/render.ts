import {
  MARKDOWN,
  answerAction,
  choicesOf,
  closedAnswerLine,
  enrolmentAction,
  feedbackLines,
  formatHtml,
  learnerTexts,
  openAnswerInput,
  repeatsCardBody,
  subtitleOf,
  summaryOf,
} from '../../render-common.ts';
import type { ChannelMessage, ClosedQuestion, RenderedPayload } from '../../message.ts';

// Teams: one Bot Framework message activity with an Adaptive Card 1.5. The question's answers
// are an Input.ChoiceSet with one submit (Teams shows at most six actions, so never a button
// per answer); the submit's data carries the delivery, the server judges the chosen index.

export const TEAMS_CARD_VERSION = '1.5';

type Element = Record<string, unknown>;

const card = (body: Element[], actions: Element[]) => ({
  contentType: 'application/vnd.microsoft.card.adaptive',
  content: {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: TEAMS_CARD_VERSION,
    body,
    actions,
  },
});

const text = (value: string, extra: Element = {}) => ({
  type: 'TextBlock',
  text: value,
  wrap: true,
  ...extra,
});

/**
 * The message activity a lesson, reminder or invitation is sent as; `closed`: the lesson's
 * question once answered (updateActivity), the chosen answer in place of the input and submit.
 */
export const renderTeamsActivity = (
  message: ChannelMessage,
  closed?: ClosedQuestion,
): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const body: Element[] = [];
  const actions: Element[] = [];
  if (message.kind === 'invitation') {
    body.push(text(texts.invitationTitle(message.courseName), { weight: 'Bolder' }));
    body.push(text(texts.invitationText(message.recipient.firstName, message.courseName)));
    actions.push(
      { type: 'Action.Submit', title: texts.join, data: enrolmentAction(message, 'opted_in') },
      { type: 'Action.Submit', title: texts.decline, data: enrolmentAction(message, 'declined') },
    );
  } else if (message.kind === 'feedback') {
    const [title = '', ...rest] = feedbackLines(message);
    body.push(text(title, { weight: 'Bolder' }));
    for (const line of rest) body.push(text(line));
  } else if (message.kind === 'repeats') {
    body.push(...repeatsCardBody(message));
  } else if (message.kind === 'reminder') {
    body.push(text(texts.reminderTitle, { weight: 'Bolder' }));
    body.push(text(texts.reminderText(message.courseName, lesson?.title ?? '')));
  } else if (lesson) {
    body.push(text(lesson.title, { weight: 'Bolder', size: 'Large' }));
    body.push(text(subtitleOf(message, texts), { isSubtle: true, spacing: 'None' }));
    body.push(text(lesson.topic_intro));
    body.push(text(formatHtml(lesson.topic_content, MARKDOWN)));
    if (lesson.media) {
      actions.push({ type: 'Action.OpenUrl', title: texts.media, url: lesson.media.url });
    }
    if (lesson.assessment) {
      body.push(text(`**${texts.question}:** ${lesson.assessment.question}`, { separator: true }));
      const choices = choicesOf(lesson);
      if (closed) {
        body.push(text(closedAnswerLine(closed), { weight: 'Bolder' }));
        return activityOf(message, body, actions);
      }
      body.push(
        choices.length > 0
          ? {
              type: 'Input.ChoiceSet',
              id: 'answer',
              style: 'expanded',
              isRequired: true,
              choices: choices.map((answer, index) => ({
                title: answer.text,
                value: String(index),
              })),
            }
          : openAnswerInput(texts.openAnswer),
      );
      const { answer: _index, ...data } = answerAction(message.deliveryUuid, 0);
      actions.push({ type: 'Action.Submit', title: texts.send, data });
    }
  }
  return activityOf(message, body, actions);
};

const activityOf = (message: ChannelMessage, body: Element[], actions: Element[]) => ({
  type: 'message',
  summary: summaryOf(message),
  text: summaryOf(message),
  attachments: [card(body, actions)],
});
