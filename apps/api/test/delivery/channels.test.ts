import { describe, expect, it } from 'vitest';

import { createRateLimiter, sendWithRetries } from '../../src/delivery/channels.ts';
import type { ChannelAdapter } from '../../src/delivery/channels.ts';
import { CHANNELS } from '../../src/delivery/channels/index.ts';
import { parseAction } from '../../src/delivery/inbound.ts';
import { formatHtml } from '../../src/delivery/render-common.ts';
import { adaptiveCardProblems } from '../fakes/adaptive-cards.ts';
import { blockProblems } from '../fakes/slack.ts';
import type { ChannelMessage, LessonContent } from '../../src/delivery/message.ts';

const DELIVERY = '3f1e0c9a-7b2d-4e5f-8a6b-1c2d3e4f5a6b';
const COURSE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const LEARNER = '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61';

const lesson: LessonContent = {
  day: 2,
  title: 'Anchoring',
  topic_intro: 'The first number sets the frame.',
  topic_content:
    '<p>Open with a <strong>precise</strong> figure &amp; <em>justify</em> it.</p><ul><li>Research first</li><li>See <a href="https://example.com/anchor">the guide</a></li></ul>',
  learning_minutes: 5,
  media: { type: 'link', url: 'https://example.com/video' },
  assessment: {
    question: 'Who should anchor first?',
    type: 'multiple_choice',
    mandatory: true,
    answers: [
      { text: 'The better prepared side', correct: true, response: 'Yes.' },
      { text: 'Always the buyer', correct: false, response: 'No.' },
      { text: 'Nobody', correct: false, response: 'No.' },
    ],
    thank_you_message: null,
  },
};

const message = (overrides: Partial<ChannelMessage> = {}): ChannelMessage => ({
  kind: 'lesson',
  channel: 'slack',
  companyUuid: 'c0000000-0000-4000-8000-000000000000',
  courseUuid: COURSE,
  courseName: 'Negotiation Basics',
  deliveryUuid: DELIVERY,
  language: 'en',
  recipient: {
    learnerUuid: LEARNER,
    firstName: 'Ada',
    lastName: 'Lovelace',
    address: 'ada@example.test',
  },
  lesson,
  totalDays: 5,
  ...overrides,
});

/** A JSON array of the payload, typed for the assertions. */
const list = <T>(value: unknown): T[] => value as T[];

const answerValue = (index: number) =>
  JSON.stringify({ type: 'answered', delivery_uuid: DELIVERY, answer: index });

describe('formatHtml: lesson HTML as each channel’s text', () => {
  it('turns paragraphs, lists, bold, italic, links and entities into Slack mrkdwn', () => {
    expect(
      formatHtml(lesson.topic_content, {
        bold: (text) => `*${text}*`,
        italic: (text) => `_${text}_`,
        link: (text, href) => `<${href}|${text}>`,
        newline: '\n',
      }),
    ).toBe(
      'Open with a *precise* figure & _justify_ it.\n\n• Research first\n• See <https://example.com/anchor|the guide>',
    );
  });

  it('drops scripts, styles and comments', () => {
    const style = {
      bold: (t: string) => t,
      italic: (t: string) => t,
      link: (t: string) => t,
      newline: ' ',
    };
    expect(
      formatHtml('<p>Hi<script>alert(1)</script><!-- x --><style>p{}</style></p>', style),
    ).toBe('Hi');
  });

  it('restores nested formatting and never decodes twice', () => {
    const markdown = {
      bold: (text: string) => `**${text}**`,
      italic: (text: string) => `_${text}_`,
      link: (text: string, href: string) => `[${text}](${href})`,
      newline: '\n',
    };
    expect(
      formatHtml(
        '<p><strong>Read <a href="https://x.test/?a=1&amp;b=2">this</a></strong> &amp;lt;ok&amp;gt;</p>',
        markdown,
      ),
    ).toBe('**Read [this](https://x.test/?a=1&b=2)** &lt;ok&gt;');
  });
});

describe('lists keep their kind on every channel (issue 27 item 7)', () => {
  const plain = { bold: (t: string) => t, italic: (t: string) => t, link: (t: string) => t };

  it('numbers an ordered list from its start, one line per item, a nested list under its item', () => {
    expect(
      formatHtml(
        '<p>Steps:</p><ol><li><p>Research</p></li><li><p>Anchor <strong>high</strong></p><ul><li><p>a figure</p></li><li>a reason</li></ul></li><li><p>Wait</p><p>then answer</p></li></ol><ol start="7"><li>Seventh</li></ol><p>Done.</p>',
        { ...plain, bold: (t: string) => `*${t}*`, newline: '\n' },
      ),
    ).toBe(
      [
        'Steps:',
        '',
        '1. Research',
        '2. Anchor *high*',
        '   • a figure',
        '   • a reason',
        '3. Wait',
        '   then answer',
        '',
        '7. Seventh',
        '',
        'Done.',
      ].join('\n'),
    );
  });

  it('arrives numbered, without blank lines between items, in each channel’s own format', () => {
    const numbered = message({
      lesson: {
        ...lesson,
        topic_content: '<ol><li><p>Research first</p></li><li><p>Anchor second</p></li></ol>',
      },
    });
    const expected: Record<string, string> = {
      'ms-teams': '1. Research first\n2. Anchor second',
      slack: '1. Research first\n2. Anchor second',
      whatsapp: '1. Research first\n2. Anchor second',
      webex: '1. Research first\n2. Anchor second',
      'google-chat': '1. Research first<br>2. Anchor second',
    };
    for (const [channel, text] of Object.entries(expected)) {
      const payload = JSON.stringify(
        CHANNELS[channel as keyof typeof CHANNELS].render({
          ...numbered,
          channel: channel as ChannelMessage['channel'],
          recipient: { ...numbered.recipient, address: '+393331234567' },
        }),
      );
      expect({ channel, numbered: payload.includes(JSON.stringify(text).slice(1, -1)) }).toEqual({
        channel,
        numbered: true,
      });
      expect({ channel, bullets: payload.includes('•') }).toEqual({ channel, bullets: false });
    }
  });
});

describe('CHANNELS[channel].render: one message, five channel payloads', () => {
  it('MS Teams: a Bot Framework activity with an Adaptive Card 1.5, the answers in one choice set', () => {
    const payload = CHANNELS['ms-teams'].render(message({ channel: 'ms-teams' })) as any;
    expect(payload.type).toBe('message');
    const card = payload.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    const body = list<{
      type: string;
      text?: string;
      choices?: { title: string; value: string }[];
    }>(card.content.body);
    expect(body.filter((block) => block.type === 'TextBlock').map((block) => block.text)).toEqual([
      'Anchoring',
      'Negotiation Basics · Day 2 of 5 · 5 min',
      'The first number sets the frame.',
      'Open with a **precise** figure & _justify_ it.\n\n• Research first\n• See [the guide](https://example.com/anchor)',
      '**Question:** Who should anchor first?',
    ]);
    expect(body.at(-1)!.choices!.map((choice) => [choice.title, choice.value])).toEqual([
      ['The better prepared side', '0'],
      ['Always the buyer', '1'],
      ['Nobody', '2'],
    ]);
    expect(card.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the material', url: 'https://example.com/video' },
      { type: 'Action.Submit', title: 'Send', data: { type: 'answered', delivery_uuid: DELIVERY } },
    ]);
  });

  it('Slack: chat.postMessage with Block Kit, answer buttons carrying the delivery', () => {
    const payload = CHANNELS.slack.render(message()) as any;
    expect(payload.channel).toBe('ada@example.test');
    expect(payload.text).toBe('Anchoring (Negotiation Basics)');
    expect(payload.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Anchoring' },
    });
    expect(list<{ type: string }>(payload.blocks).map((block) => block.type)).toEqual([
      'header',
      'context',
      'section',
      'section',
      'section',
      'divider',
      'section',
      'actions',
    ]);
    const actions = list<any>(payload.blocks).at(-1);
    expect(actions.block_id).toBe(`answer:${DELIVERY}`);
    expect(
      list<{ value: string; action_id: string }>(actions.elements).map((button) => [
        button.action_id,
        button.value,
      ]),
    ).toEqual([
      ['answer_0', answerValue(0)],
      ['answer_1', answerValue(1)],
      ['answer_2', answerValue(2)],
    ]);
  });

  it('WhatsApp: the session messages, the lesson as text and the question as a list when an answer is over 20 characters', () => {
    const payload = CHANNELS.whatsapp.render(
      message({
        channel: 'whatsapp',
        language: 'it',
        recipient: { ...message().recipient, address: '+393331234567' },
      }),
    ) as any;
    expect(payload).toMatchObject({
      messaging_product: 'whatsapp',
      to: '+393331234567',
      type: 'text',
    });
    expect(payload.text.body).toContain('_Negotiation Basics · Giorno 2 di 5 · 5 min_');
    const question = list<any>(payload.continued).at(-1);
    expect(question.interactive.type).toBe('list');
    expect(question.interactive.body.text).toContain('1. The better prepared side');
    expect(
      list<{ id: string; title: string }>(question.interactive.action.sections[0].rows).map(
        (row) => [row.title, row.id],
      ),
    ).toEqual([
      ['1', answerValue(0)],
      ['2', answerValue(1)],
      ['3', answerValue(2)],
    ]);
  });

  it('Webex: /v1/messages markdown to the person’s e-mail, then the question on an Adaptive Card 1.3 of its own', () => {
    const payload = CHANNELS.webex.render(message({ channel: 'webex' })) as any;
    expect(payload.toPersonEmail).toBe('ada@example.test');
    // The lesson's text goes without a card: Webex clients that render a card hide the message's
    // text (https://developer.webex.com/docs/api/guides/cards), so the card is a second message.
    expect(payload.attachments).toBeUndefined();
    expect(payload.markdown).toBe(
      [
        '## Anchoring',
        '_Negotiation Basics · Day 2 of 5 · 5 min_',
        '',
        'The first number sets the frame.',
        '',
        'Open with a **precise** figure & _justify_ it.\n\n• Research first\n• See [the guide](https://example.com/anchor)',
        '',
        '[Open the material](https://example.com/video)',
      ].join('\n'),
    );
    const [question, ...more] = payload.continued;
    expect(more).toEqual([]);
    expect(question.toPersonEmail).toBe('ada@example.test');
    // Its fallback, for clients without cards: the question and its answers.
    expect(question.markdown).toBe(
      [
        '**Question:** Who should anchor first?',
        '1. The better prepared side',
        '2. Always the buyer',
        '3. Nobody',
      ].join('\n'),
    );
    // Answered by a card submit (Webex's Adaptive Cards are version 1.3): the index comes back.
    type Card = {
      version: string;
      body: { type: string; choices?: { title: string; value: string }[] }[];
      actions: unknown[];
    };
    const card = question.attachments[0].content as Card;
    expect(card.version).toBe('1.3');
    const choices = card.body.find((element) => element.type === 'Input.ChoiceSet')?.choices ?? [];
    expect(choices.map((choice) => [choice.title, choice.value])).toEqual([
      ['The better prepared side', '0'],
      ['Always the buyer', '1'],
      ['Nobody', '2'],
    ]);
    expect(card.actions).toEqual([
      {
        type: 'Action.Submit',
        title: 'Send',
        data: { type: 'answered', delivery_uuid: DELIVERY },
      },
    ]);
  });

  it('Google Chat: a cardsV2 card with an HTML paragraph and answer buttons', () => {
    const payload = CHANNELS['google-chat'].render(
      message({ channel: 'google-chat', language: 'de' }),
    ) as any;
    const card = payload.cardsV2[0];
    expect(card.cardId).toBe(`lesson-${DELIVERY}`);
    expect(card.card.header).toEqual({
      title: 'Anchoring',
      subtitle: 'Negotiation Basics · Tag 2 von 5 · 5 Min.',
    });
    expect(card.card.sections[0].widgets[1].textParagraph.text).toBe(
      'Open with a <b>precise</b> figure &amp; <i>justify</i> it.<br><br>• Research first<br>• See <a href="https://example.com/anchor">the guide</a>',
    );
    const buttons = card.card.sections[1].widgets[0].buttonList.buttons;
    expect(buttons[1]).toEqual({
      text: 'Always the buyer',
      onClick: {
        action: {
          // A preview has no connection: the action's name, also named in its parameters (the
          // connector puts the endpoint URL there, google-chat.test.ts).
          function: 'answered',
          parameters: [
            { key: 'type', value: 'answered' },
            { key: 'delivery_uuid', value: DELIVERY },
            { key: 'answer', value: '1' },
          ],
        },
      },
    });
  });

  it('renders the opt-in invitation with join and decline callbacks, in the learner’s language', () => {
    const invitation = message({
      kind: 'invitation',
      deliveryUuid: null,
      lesson: null,
      language: 'it',
    });
    const slack = CHANNELS.slack.render(invitation) as any;
    expect(slack.text).toBe('Sei invitato a Negotiation Basics');
    const buttons = list<{ text: { text: string }; value: string }>(
      list<any>(slack.blocks).at(-1).elements,
    );
    expect(
      buttons.map((button): unknown[] => [button.text.text, JSON.parse(button.value)]),
    ).toEqual([
      ['Sì, partecipo', { type: 'opted_in', course_uuid: COURSE, learner_uuid: LEARNER }],
      ['No, grazie', { type: 'declined', course_uuid: COURSE, learner_uuid: LEARNER }],
    ]);
    const whatsapp = CHANNELS.whatsapp.render({ ...invitation, channel: 'whatsapp' }) as any;
    expect(whatsapp.interactive.body.text).toContain('Ada');
    expect(
      list<{ reply: { id: string; title: string } }>(whatsapp.interactive.action.buttons).map(
        (button): unknown[] => [button.reply.title, JSON.parse(button.reply.id)],
      ),
    ).toEqual([
      ['Sì, partecipo', { type: 'opted_in', course_uuid: COURSE, learner_uuid: LEARNER }],
      ['No, grazie', { type: 'declined', course_uuid: COURSE, learner_uuid: LEARNER }],
    ]);
  });

  it('renders the unread reminder naming the lesson', () => {
    const reminder = message({ kind: 'reminder' });
    expect((CHANNELS.webex.render(reminder) as any).markdown).toBe(
      '**A lesson is waiting for you**\nYou have not opened "Anchoring" of Negotiation Basics yet.',
    );
    expect((CHANNELS.whatsapp.render(reminder) as any).text.body).toContain(
      'You have not opened "Anchoring" of Negotiation Basics yet.',
    );
  });
});

// After the last lesson a day's repeats have no lesson to ride along with: they go as one message
// per learner (issue 28), each question with its own answers, within each channel's limits.
describe('a day’s repeated questions, one message on each channel', () => {
  const SECOND = '5d2c1b0a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
  const trueFalse: LessonContent = {
    ...lesson,
    day: 4,
    title: 'Silence',
    assessment: {
      question: 'Silence after an offer helps.',
      type: 'true_false',
      mandatory: true,
      answers: [
        { text: 'True', correct: true, response: 'Yes.' },
        { text: 'False', correct: false, response: 'No.' },
      ],
      thank_you_message: null,
    },
  };
  const repeats = (channel: ChannelMessage['channel'], overrides: Partial<ChannelMessage> = {}) =>
    message({
      kind: 'repeats',
      channel,
      repeats: [
        { deliveryUuid: DELIVERY, lesson },
        { deliveryUuid: SECOND, lesson: trueFalse },
      ],
      ...overrides,
    });
  const answered = (delivery: string, answer: number) => ({
    type: 'answered',
    delivery_uuid: delivery,
    answer,
  });

  it('Slack: one message, each question where it is from with its own buttons', () => {
    const payload = CHANNELS.slack.render(repeats('slack')) as any;
    expect(blockProblems(payload.blocks)).toEqual([]);
    expect(payload.text).toBe('Questions to try again (Negotiation Basics)');
    const blocks = list<any>(payload.blocks);
    expect(
      blocks.filter((block) => block.type === 'context').map((b): unknown => b.elements[0].text),
    ).toEqual(['Negotiation Basics · Day 2: Anchoring', 'Negotiation Basics · Day 4: Silence']);
    const actions = blocks.filter((block) => block.type === 'actions');
    expect(
      actions.map((block): unknown[] =>
        list<any>(block.elements).map((b): unknown => JSON.parse(b.value)),
      ),
    ).toEqual([
      [answered(DELIVERY, 0), answered(DELIVERY, 1), answered(DELIVERY, 2)],
      [answered(SECOND, 0), answered(SECOND, 1)],
    ]);
  });

  it('Teams and Webex: one card, a choice set per question named by its send, each with its Send', () => {
    const teams = CHANNELS['ms-teams'].render(repeats('ms-teams')) as any;
    const teamsCard = teams.attachments[0].content;
    expect(adaptiveCardProblems(teamsCard, { version: '1.5', maxActions: 6 })).toEqual([]);
    const webex = CHANNELS.webex.render(repeats('webex')) as any;
    expect(webex.continued).toBeUndefined();
    expect(webex.markdown).toContain('**Question 2: Silence after an offer helps.**');
    const webexCard = webex.attachments[0].content;
    expect(adaptiveCardProblems(webexCard, { version: '1.3' })).toEqual([]);
    for (const card of [teamsCard, webexCard]) {
      const containers = list<any>(card.body).filter((element) => element.type === 'Container');
      expect(containers.map((container): unknown => container.items[2].id)).toEqual([
        `answer:${DELIVERY}`,
        `answer:${SECOND}`,
      ]);
      const submit = containers[1].items[3].actions[0];
      // A submit carries every input of the card: the one of its own send is the answer.
      const inputs = { [`answer:${DELIVERY}`]: '2', [`answer:${SECOND}`]: '1' };
      expect(parseAction({ ...submit.data, ...inputs })).toEqual(answered(SECOND, 1));
    }
  });

  it('Google Chat: one card, a section per question with its buttons', () => {
    const payload = CHANNELS['google-chat'].render(
      repeats('google-chat', { language: 'de' }),
    ) as any;
    const card = payload.cardsV2[0].card;
    expect(card.header.title).toBe('Fragen zum Wiederholen');
    expect(list<any>(card.sections).map((section): unknown => section.header)).toEqual([
      'Who should anchor first?',
      'Silence after an offer helps.',
    ]);
    const buttons = list<any>(card.sections[1].widgets[1].buttonList.buttons);
    expect(buttons.map((button): unknown => button.onClick.action.parameters[1].value)).toEqual([
      SECOND,
      SECOND,
    ]);
  });

  it('WhatsApp: one list message with a section per question; an open question makes it one text', () => {
    const whatsapp = { address: '+393331234567' };
    const payload = CHANNELS.whatsapp.render(
      repeats('whatsapp', { language: 'it', recipient: { ...message().recipient, ...whatsapp } }),
    ) as any;
    expect(payload.continued).toBeUndefined();
    expect(payload.interactive.type).toBe('list');
    expect(payload.interactive.body.text).toContain('*Domanda 2: Silence after an offer helps.*');
    const sections = list<any>(payload.interactive.action.sections);
    expect(sections.map((section): unknown => section.title)).toEqual(['Domanda 1', 'Domanda 2']);
    expect(
      sections.map((section): unknown[] =>
        list<any>(section.rows).map((r): unknown => JSON.parse(r.id)),
      ),
    ).toEqual([
      [answered(DELIVERY, 0), answered(DELIVERY, 1), answered(DELIVERY, 2)],
      [answered(SECOND, 0), answered(SECOND, 1)],
    ]);
    const open = {
      ...trueFalse,
      assessment: { ...trueFalse.assessment!, type: 'open_answer' as const, answers: [] },
    };
    const typed = CHANNELS.whatsapp.render(
      repeats('whatsapp', {
        recipient: { ...message().recipient, ...whatsapp },
        repeats: [
          { deliveryUuid: DELIVERY, lesson },
          { deliveryUuid: SECOND, lesson: open },
        ],
      }),
    ) as any;
    expect(typed.continued).toBeUndefined();
    expect(typed.type).toBe('text');
    expect(typed.text.body).toContain('1. The better prepared side');
    expect(typed.text.body).toContain('*Question 2: Silence after an offer helps.*');
  });
});

describe('adapter pacing and retries', () => {
  it('paces sends to the rate: a second’s worth at once, then one every 1/rate s', async () => {
    let now = 0;
    const waits: number[] = [];
    const acquire = createRateLimiter(2, {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await acquire();
    await acquire();
    expect(waits).toEqual([]);
    await acquire();
    expect(waits).toEqual([500]);
    now += 2000;
    await acquire();
    await acquire();
    expect(waits).toEqual([500]);
  });

  it('does not pace an adapter with no limit', async () => {
    const waits: number[] = [];
    const acquire = createRateLimiter(0, { sleep: async (ms) => void waits.push(ms) });
    for (let index = 0; index < 10; index += 1) await acquire();
    expect(waits).toEqual([]);
  });

  it('retries up to maxRetries with doubling delays and reports the last error', async () => {
    const delays: number[] = [];
    let calls = 0;
    const adapter: ChannelAdapter = {
      key: 'webex',
      rateLimitPerSecond: 0,
      maxRetries: 4,
      send: () => {
        calls += 1;
        return Promise.reject(new Error(`429 (${calls})`));
      },
    };
    const outcome = await sendWithRetries(adapter, message({ channel: 'webex' }), {
      baseDelayMs: 10,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(outcome).toEqual({
      ok: false,
      error: '429 (5)',
      attempts: 5,
      verdict: { kind: 'retry', code: 'error' },
    });
    expect(delays).toEqual([10, 20, 40, 80]);
  });
});
