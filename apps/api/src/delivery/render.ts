import type { TChannelKey } from '@ccp/schemas';

import { renderSlack } from './channels/slack/render.ts';
import { renderWebex } from './channels/webex/render.ts';
import {
  CHAT_HTML,
  MARKDOWN,
  WHATSAPP,
  answerAction,
  answerCallback,
  choicesOf,
  enrolmentAction,
  enrolmentCallback,
  escapeHtml,
  formatHtml,
  learnerTexts,
  subtitleOf,
  summaryOf,
} from './render-common.ts';
import type { ChannelMessage, RenderedPayload } from './render-common.ts';

export * from './render-common.ts';

// What each channel is sent: one message shape in, the channel's own payload out (MS Teams
// adaptive card, Slack blocks, WhatsApp template, Webex markdown, Google Chat card). Connectors
// post these bodies; the outbox adapter stores them; the wizard's preview shows them.

// --- MS Teams: a Bot Framework activity with an Adaptive Card ----------------------------------

const renderTeams = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const textBlock = (text: string, extra: Record<string, unknown> = {}) => ({
    type: 'TextBlock',
    text,
    wrap: true,
    ...extra,
  });
  const body: Record<string, unknown>[] = [
    textBlock(subtitleOf(message, texts), { size: 'Small', isSubtle: true }),
  ];
  const actions: Record<string, unknown>[] = [];
  if (message.kind === 'invitation') {
    body.push(
      textBlock(texts.invitationTitle(message.courseName), { size: 'Large', weight: 'Bolder' }),
    );
    body.push(textBlock(texts.invitationText(message.recipient.firstName, message.courseName)));
    actions.push(
      {
        type: 'Action.Submit',
        title: texts.join,
        data: enrolmentAction(message, 'opted_in'),
      },
      {
        type: 'Action.Submit',
        title: texts.decline,
        data: enrolmentAction(message, 'declined'),
      },
    );
  } else if (message.kind === 'reminder') {
    body.push(textBlock(texts.reminderTitle, { size: 'Large', weight: 'Bolder' }));
    body.push(textBlock(texts.reminderText(message.courseName, lesson?.title ?? '')));
  } else if (lesson) {
    body.push(textBlock(lesson.title, { size: 'Large', weight: 'Bolder' }));
    body.push(textBlock(lesson.topic_intro));
    body.push(textBlock(formatHtml(lesson.topic_content, MARKDOWN)));
    if (lesson.assessment) {
      body.push(textBlock(lesson.assessment.question, { weight: 'Bolder', separator: true }));
      if (lesson.assessment.type === 'open_answer') {
        body.push({
          type: 'Input.Text',
          id: 'answer',
          isMultiline: true,
          placeholder: texts.openAnswer,
        });
        actions.push({
          type: 'Action.Submit',
          title: texts.send,
          data: { type: 'answered', delivery_uuid: message.deliveryUuid },
        });
      }
      choicesOf(lesson).forEach((answer, index) =>
        actions.push({
          type: 'Action.Submit',
          title: answer.text,
          data: answerAction(message.deliveryUuid, index),
        }),
      );
    }
    if (lesson.media)
      actions.push({ type: 'Action.OpenUrl', title: texts.media, url: lesson.media.url });
  }
  return {
    type: 'message',
    summary: summaryOf(message),
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          type: 'AdaptiveCard',
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          version: '1.5',
          body,
          actions,
        },
      },
    ],
  };
};

// --- WhatsApp: Cloud API template messages -----------------------------------------------------

// Template parameters may not hold new lines or tabs (WhatsApp Cloud API rule).
const oneLine = (text: string) =>
  text
    .replace(/\s*\n+\s*/g, ' · ')
    .replace(/\s{2,}/g, ' ')
    .trim();

const renderWhatsApp = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const param = (text: string) => ({ type: 'text', text: oneLine(text) });
  const quickReplies = (payloads: string[]) =>
    payloads.map((payload, index) => ({
      type: 'button',
      sub_type: 'quick_reply',
      index: String(index),
      parameters: [{ type: 'payload', payload }],
    }));
  let name: string;
  let components: Record<string, unknown>[];
  if (message.kind === 'invitation') {
    name = 'ccp_invitation';
    components = [
      { type: 'body', parameters: [param(message.recipient.firstName), param(message.courseName)] },
      ...quickReplies([
        enrolmentCallback(message, 'opted_in'),
        enrolmentCallback(message, 'declined'),
      ]),
    ];
  } else if (message.kind === 'reminder') {
    name = 'ccp_reminder';
    components = [
      { type: 'body', parameters: [param(message.courseName), param(lesson?.title ?? '')] },
    ];
  } else {
    name = 'ccp_lesson';
    const content = lesson ? formatHtml(lesson.topic_content, WHATSAPP) : '';
    const choices = choicesOf(lesson);
    const question = lesson?.assessment
      ? `${lesson.assessment.question} ${
          choices.length > 0
            ? `${choices.map((answer, index) => `${index + 1}. ${answer.text}`).join(' ')} ${texts.numberedAnswer}`
            : texts.openAnswer
        }`
      : '-';
    components = [
      {
        type: 'header',
        parameters: [param(subtitleOf(message, texts))],
      },
      {
        type: 'body',
        parameters: [
          param(lesson?.title ?? ''),
          param(lesson?.topic_intro ?? ''),
          param(`${content}${lesson?.media ? ` ${texts.media}: ${lesson.media.url}` : ''}`),
          param(question),
        ],
      },
      // Quick replies hold at most three buttons; longer choices are answered by number.
      ...(choices.length > 0 && choices.length <= 3
        ? quickReplies(choices.map((_, index) => answerCallback(message.deliveryUuid, index)))
        : []),
    ];
  }
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.recipient.address,
    type: 'template',
    template: { name, language: { code: message.language }, components },
  };
};

// --- Google Chat: a cardsV2 message ------------------------------------------------------------

const renderGoogleChat = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const paragraph = (text: string) => ({ textParagraph: { text } });
  const action = (text: string, fn: string, parameters: Record<string, string>) => ({
    text,
    onClick: {
      action: {
        function: fn,
        parameters: Object.entries(parameters).map(([key, value]) => ({ key, value })),
      },
    },
  });
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
      if (lesson.assessment) {
        const choices = choicesOf(lesson);
        sections.push({
          header: escapeHtml(lesson.assessment.question),
          widgets:
            choices.length > 0
              ? [
                  {
                    buttonList: {
                      buttons: choices.map((answer, index) =>
                        action(answer.text, 'answered', {
                          delivery_uuid: message.deliveryUuid ?? '',
                          answer: String(index),
                        }),
                      ),
                    },
                  },
                ]
              : [paragraph(escapeHtml(texts.openAnswer))],
        });
      }
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

const RENDERERS: Record<TChannelKey, (message: ChannelMessage) => RenderedPayload> = {
  'ms-teams': renderTeams,
  slack: renderSlack,
  whatsapp: renderWhatsApp,
  webex: renderWebex,
  'google-chat': renderGoogleChat,
};

/** The payload `channel` is sent for a message. */
export const renderPayload = (channel: TChannelKey, message: ChannelMessage): RenderedPayload =>
  RENDERERS[channel](message);
