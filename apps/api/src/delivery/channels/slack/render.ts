import {
  answerCallback,
  choicesOf,
  closedAnswerLine,
  enrolmentCallback,
  feedbackLines,
  formatHtml,
  learnerTexts,
  repeatedQuestions,
  subtitleOf,
  summaryOf,
} from '../../render-common.ts';
import type { TextStyle } from '../../render-common.ts';
import type { ChannelMessage, ClosedQuestion, RenderedPayload } from '../../message.ts';

// Slack: chat.postMessage with Block Kit, within Slack's published limits, splitting rather
// than cutting: a section's text at most 3000 characters (longer content becomes several
// sections), a header 150, a button's text 75 (longer answers are listed by number and the
// buttons carry the numbers), at most 25 elements in an actions block and 50 blocks a message.

export const SLACK_LIMITS = {
  sectionText: 3000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  actionElements: 25,
  blocks: 50,
  contextText: 3000,
  fallbackText: 40_000,
} as const;

/** Slack's three control characters in text (https://api.slack.com/reference/surfaces/formatting#escaping). */
export const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// A link's URL may not hold `|` or `>`, which end it.
const linkUrl = (href: string) =>
  href.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/</g, '%3C');

export const SLACK_MRKDWN: TextStyle = {
  bold: (text) => `*${text}*`,
  italic: (text) => `_${text}_`,
  link: (text, href) => `<${linkUrl(href)}|${text}>`,
  newline: '\n',
  escape: escapeMrkdwn,
};

const plain = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

/**
 * Text in pieces of at most `max` characters: at paragraph breaks, else line breaks, else
 * spaces, else anywhere; never inside a `<link|text>` or an entity when a break exists outside.
 */
export const splitText = (text: string, max: number): string[] => {
  const pieces: string[] = [];
  let rest = text;
  while ([...rest].length > max) {
    const head = [...rest].slice(0, max).join('');
    const inside = (at: number) => {
      const open = head.lastIndexOf('<', at);
      const amp = head.lastIndexOf('&', at);
      return (
        (open > head.lastIndexOf('>', at) && open >= 0) ||
        (amp > head.lastIndexOf(';', at) && amp >= 0 && at - amp < 10)
      );
    };
    let cut = -1;
    for (const separator of ['\n\n', '\n', ' ']) {
      let at = head.lastIndexOf(separator);
      while (at > 0 && inside(at)) at = head.lastIndexOf(separator, at - 1);
      if (at > max / 2) {
        cut = at;
        break;
      }
    }
    if (cut <= 0) cut = head.length;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
};

const sections = (text: string) =>
  splitText(text, SLACK_LIMITS.sectionText).map((piece) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: piece },
  }));

const button = (text: string, actionId: string, value: string) => ({
  type: 'button',
  text: { type: 'plain_text', text, emoji: true },
  action_id: actionId,
  value,
});

/** The answer buttons: the answers themselves, or their numbers when one is too long. */
const answerBlocks = (message: ChannelMessage): Record<string, unknown>[] => {
  const choices = choicesOf(message.lesson);
  if (choices.length === 0) return [];
  const fits = choices.every((answer) => [...answer.text].length <= SLACK_LIMITS.buttonText);
  const blocks: Record<string, unknown>[] = [];
  if (!fits) {
    blocks.push(
      ...sections(
        choices.map((answer, index) => `*${index + 1}.* ${escapeMrkdwn(answer.text)}`).join('\n'),
      ),
    );
  }
  blocks.push({
    type: 'actions',
    block_id: `answer:${message.deliveryUuid ?? ''}`,
    elements: choices.map((answer, index) =>
      button(
        fits ? answer.text : String(index + 1),
        `answer_${index}`,
        answerCallback(message.deliveryUuid, index),
      ),
    ),
  });
  return blocks;
};

/** The lesson's question, then its buttons, or once answered (`closed`) the answer chosen. */
const questionBlocks = (
  message: ChannelMessage,
  closed?: ClosedQuestion,
): Record<string, unknown>[] => {
  const texts = learnerTexts(message.language);
  const assessment = message.lesson?.assessment;
  if (!assessment) return [];
  const open = assessment.type === 'open_answer';
  return [
    ...sections(
      `*${escapeMrkdwn(assessment.question)}*${open ? `\n${escapeMrkdwn(texts.openAnswer)}` : ''}`,
    ),
    ...(closed ? sections(`*${escapeMrkdwn(closedAnswerLine(closed))}*`) : answerBlocks(message)),
  ];
};

/** A day's questions asked again (issue 28): each where it is from, its question and buttons. */
const repeatsBlocks = (message: ChannelMessage): Record<string, unknown>[] => [
  {
    type: 'header',
    text: {
      type: 'plain_text',
      text: plain(learnerTexts(message.language).repeatsTitle, SLACK_LIMITS.headerText),
    },
  },
  ...repeatedQuestions(message).flatMap(({ from, asked }) => [
    { type: 'divider' },
    { type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(from) }] },
    ...questionBlocks(asked),
  ]),
];

const lessonBlocks = (
  message: ChannelMessage,
  closed?: ClosedQuestion,
): Record<string, unknown>[] => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  if (!lesson) return [];
  const blocks: Record<string, unknown>[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: plain(lesson.title, SLACK_LIMITS.headerText) },
    },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: escapeMrkdwn(subtitleOf(message, texts)) }],
    },
    ...sections(escapeMrkdwn(lesson.topic_intro)),
    ...sections(formatHtml(lesson.topic_content, SLACK_MRKDWN)),
  ];
  if (lesson.media)
    blocks.push(...sections(`<${linkUrl(lesson.media.url)}|${escapeMrkdwn(texts.media)}>`));
  if (lesson.assessment) blocks.push({ type: 'divider' }, ...questionBlocks(message, closed));
  return blocks;
};

export const renderSlack = (message: ChannelMessage): RenderedPayload => {
  const texts = learnerTexts(message.language);
  const { lesson } = message;
  let blocks: Record<string, unknown>[];
  if (message.kind === 'invitation') {
    blocks = [
      {
        type: 'header',
        text: {
          type: 'plain_text',
          text: plain(texts.invitationTitle(message.courseName), SLACK_LIMITS.headerText),
        },
      },
      ...sections(
        escapeMrkdwn(texts.invitationText(message.recipient.firstName, message.courseName)),
      ),
      {
        type: 'actions',
        block_id: `enrolment:${message.courseUuid}`,
        elements: [
          {
            ...button(texts.join, 'opt_in', enrolmentCallback(message, 'opted_in')),
            style: 'primary',
          },
          button(texts.decline, 'decline', enrolmentCallback(message, 'declined')),
        ],
      },
    ];
  } else if (message.kind === 'feedback') {
    const [title = '', ...rest] = feedbackLines(message);
    blocks = sections([`*${escapeMrkdwn(title)}*`, ...rest.map(escapeMrkdwn)].join('\n'));
  } else if (message.kind === 'repeats') {
    blocks = repeatsBlocks(message);
  } else if (message.kind === 'reminder') {
    blocks = sections(
      `*${escapeMrkdwn(texts.reminderTitle)}*\n${escapeMrkdwn(texts.reminderText(message.courseName, lesson?.title ?? ''))}`,
    );
  } else {
    blocks = lessonBlocks(message);
  }
  // `channel` is the learner's e-mail here; the connector sends to the DM it opened for them.
  return {
    channel: message.recipient.address,
    text: plain(summaryOf(message), SLACK_LIMITS.fallbackText),
    blocks,
    unfurl_links: false,
  };
};

/**
 * The question once answered, for chat.update (issue 28): the same lesson, its buttons (and the
 * numbered list they stood for) replaced by the chosen answer, marked.
 */
export const renderSlackClosed = (question: ClosedQuestion): RenderedPayload => ({
  text: plain(summaryOf(question.message), SLACK_LIMITS.fallbackText),
  blocks: lessonBlocks(question.message, question),
});
