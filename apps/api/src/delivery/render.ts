import type { TAssessment, TChannelKey, TLessonMedia, TLocale } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';

// What each channel is sent: one message shape in, the channel's own payload out (MS Teams
// adaptive card, Slack blocks, WhatsApp template, Webex markdown, Google Chat card). Real
// connectors post these bodies as they are; the outbox adapter stores them.

export type MessageKind = 'lesson' | 'reminder' | 'invitation';

export type LessonContent = {
  day: number;
  title: string;
  topic_intro: string;
  /** HTML. */
  topic_content: string;
  learning_minutes: number;
  media: TLessonMedia | null;
  assessment: TAssessment | null;
};

export type ChannelMessage = {
  kind: MessageKind;
  channel: TChannelKey;
  companyUuid: string;
  courseUuid: string;
  courseName: string;
  /** The lesson send this message belongs to; null for an invitation. */
  deliveryUuid: string | null;
  language: TLocale;
  recipient: {
    learnerUuid: string;
    firstName: string;
    lastName: string;
    /** The e-mail (Teams, Slack, Webex, Google Chat) or phone (WhatsApp) the channel reaches. */
    address: string;
  };
  /** The lesson, for a lesson or its reminder. */
  lesson: LessonContent | null;
  /** Number of lesson days of the course ("Day 2 of 5"). */
  totalDays: number;
};

/** A channel's payload: JSON the channel's API takes. */
export type RenderedPayload = Record<string, unknown>;

type LearnerTexts = {
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
});

const TEXTS: Record<TLocale, LearnerTexts> = {
  en: textsFor('en'),
  it: textsFor('it'),
  de: textsFor('de'),
};

export const learnerTexts = (language: TLocale): LearnerTexts => TEXTS[language];

// --- Lesson HTML to each channel's text format ------------------------------------------------

type TextStyle = {
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

/** Lesson HTML (paragraphs, lists, bold, italic, links) as a channel's rich text. */
export const formatHtml = (html: string, style: TextStyle): string => {
  // Formatted pieces wait as tokens, so the tag stripping below cannot eat `<url|text>` or `<b>`.
  const pieces: string[] = [];
  const keep = (formatted: string) => `\uE000${pieces.push(formatted) - 1}\uE001`;
  const escape = style.escape ?? ((text: string) => text);
  const inline = (text: string) => escape(decode(text.replace(/<[^>]*>/g, '')));
  const text = html
    .replace(/[\uE000\uE001]/g, '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
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
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|ul|ol)>/gi, '\n\n')
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

const MARKDOWN: TextStyle = {
  bold: (text) => `**${text}**`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `[${text}](${href})`,
  newline: '\n',
};
const SLACK: TextStyle = {
  bold: (text) => `*${text}*`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `<${href}|${text}>`,
  newline: '\n',
};
const WHATSAPP: TextStyle = {
  bold: (text) => `*${text}*`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `${text} (${href})`,
  newline: '\n',
};
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const CHAT_HTML: TextStyle = {
  bold: (text) => `<b>${text}</b>`,
  italic: (text) => `<i>${text}</i>`,
  link: (text, href) => `<a href="${escapeHtml(href)}">${text}</a>`,
  newline: '<br>',
  escape: escapeHtml,
};

const truncate = (text: string, max: number) =>
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

const choicesOf = (lesson: LessonContent | null) =>
  lesson?.assessment && lesson.assessment.type !== 'open_answer' ? lesson.assessment.answers : [];

const subtitleOf = (message: ChannelMessage, texts: LearnerTexts) =>
  message.lesson
    ? `${message.courseName} · ${texts.day(message.lesson.day, message.totalDays)} · ${texts.minutes(message.lesson.learning_minutes)}`
    : message.courseName;

/** A plain one-line summary, the fallback text channels show in notifications. */
export const summaryOf = (message: ChannelMessage): string => {
  const texts = learnerTexts(message.language);
  if (message.kind === 'invitation') return texts.invitationTitle(message.courseName);
  if (message.kind === 'reminder') return texts.reminderTitle;
  return `${message.lesson?.title ?? message.courseName} (${message.courseName})`;
};

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

// --- Slack: chat.postMessage with Block Kit ----------------------------------------------------

const renderSlack = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const mrkdwn = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
  const button = (text: string, actionId: string, value: string) => ({
    type: 'button',
    text: { type: 'plain_text', text: truncate(text, 75) },
    action_id: actionId,
    value,
  });
  const blocks: Record<string, unknown>[] = [];
  if (message.kind === 'invitation') {
    blocks.push({
      type: 'header',
      text: { type: 'plain_text', text: truncate(texts.invitationTitle(message.courseName), 150) },
    });
    blocks.push(mrkdwn(texts.invitationText(message.recipient.firstName, message.courseName)));
    blocks.push({
      type: 'actions',
      block_id: `enrolment:${message.courseUuid}`,
      elements: [
        {
          ...button(texts.join, 'opt_in', enrolmentCallback(message, 'opted_in')),
          style: 'primary',
        },
        button(texts.decline, 'decline', enrolmentCallback(message, 'declined')),
      ],
    });
  } else if (message.kind === 'reminder') {
    blocks.push(
      mrkdwn(
        `*${texts.reminderTitle}*\n${texts.reminderText(message.courseName, lesson?.title ?? '')}`,
      ),
    );
  } else if (lesson) {
    blocks.push({
      type: 'header',
      text: { type: 'plain_text', text: truncate(lesson.title, 150) },
    });
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: subtitleOf(message, texts) }],
    });
    blocks.push(mrkdwn(lesson.topic_intro));
    blocks.push(mrkdwn(formatHtml(lesson.topic_content, SLACK)));
    if (lesson.media) blocks.push(mrkdwn(`<${lesson.media.url}|${texts.media}>`));
    if (lesson.assessment) {
      blocks.push({ type: 'divider' });
      const open = lesson.assessment.type === 'open_answer';
      blocks.push(mrkdwn(`*${lesson.assessment.question}*${open ? `\n${texts.openAnswer}` : ''}`));
      const choices = choicesOf(lesson);
      if (choices.length > 0) {
        blocks.push({
          type: 'actions',
          block_id: `answer:${message.deliveryUuid ?? ''}`,
          elements: choices.map((answer, index) =>
            button(answer.text, `answer_${index}`, answerCallback(message.deliveryUuid, index)),
          ),
        });
      }
    }
  }
  // Slack addresses users by id: the connector resolves this e-mail with users.lookupByEmail.
  return {
    channel: message.recipient.address,
    text: summaryOf(message),
    blocks,
    unfurl_links: false,
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

// --- Webex: POST /v1/messages with markdown ----------------------------------------------------

const renderWebex = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  const lines: string[] = [];
  if (message.kind === 'invitation') {
    lines.push(`**${texts.invitationTitle(message.courseName)}**`);
    lines.push(texts.invitationText(message.recipient.firstName, message.courseName));
    lines.push(`1. ${texts.join}`, `2. ${texts.decline}`, '', texts.numberedAnswer);
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
      lines.push('', choices.length > 0 ? texts.numberedAnswer : texts.openAnswer);
    }
  }
  return {
    toPersonEmail: message.recipient.address,
    markdown: lines.join('\n'),
    text: summaryOf(message),
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
