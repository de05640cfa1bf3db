import { readFileSync } from 'node:fs';
import path from 'node:path';

import { CONVERSATION_EVENT_TYPES, LOCALES } from '@ccp/schemas';
import type { TConversationEvent } from '@ccp/schemas';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

import { conversationLine } from './conversation-lines.ts';

// The learner page's conversation (issue 28): every step the API can answer reads as a sentence in
// en, it and de, with its values filled in, on the side of the chat of whoever took it.

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../../../../locales');

const translator = async (lng: string) => {
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    resources: {
      [lng]: {
        translation: JSON.parse(readFileSync(path.join(LOCALES_DIR, `${lng}.json`), 'utf8')),
      },
    },
    interpolation: { escapeValue: false },
  });
  return instance.t.bind(instance) as (key: string, options?: Record<string, unknown>) => string;
};

const event = (overrides: Partial<TConversationEvent>): TConversationEvent => ({
  type: 'lesson_sent',
  at: '2026-11-23T08:30:00.000Z',
  day: 3,
  channel: 'slack',
  ...overrides,
});

/** Each type, and the variants whose words differ (who paused or resumed, which notice). */
const EVERY_STEP: TConversationEvent[] = [
  ...CONVERSATION_EVENT_TYPES.map((type) =>
    event({
      type,
      failure: { reason: 'learner_not_found', message: 'Not found on the channel', detail: 'x' },
      answer: { text: 'Ask open questions', correct: true },
      repeat: 2,
      completion: { answered: 5, right: 4 },
      reason: 'unanswered',
      by: 'scheduler',
    }),
  ),
  event({ type: 'paused', reason: 'trainer', by: 'trainer', by_name: 'Anna Rossi' }),
  event({ type: 'resumed', by: 'learner' }),
  event({ type: 'resumed', by: 'trainer', by_name: 'Anna Rossi' }),
  event({ type: 'notice_sent', reason: 'resumed' }),
  event({ type: 'notice_sent', reason: 'stopped' }),
];

describe('conversationLine', () => {
  it.each(LOCALES)('reads every step as a filled-in sentence in %s', async (lng) => {
    const t = await translator(lng);
    for (const step of EVERY_STEP) {
      const line = conversationLine(step, t);
      const key = `learners.conversation.events.${line.key}`;
      const text = t(key, line.params);
      expect(text, `${lng} ${step.type}`).not.toBe(key);
      expect(text, `${lng} ${step.type}`).not.toMatch(/\{\{|undefined/);
    }
  });

  it('fills in what the learner answered, the day, the channel and the trainer', async () => {
    const t = await translator('en');
    const say = (step: TConversationEvent) => {
      const line = conversationLine(step, t);
      return [t(`learners.conversation.events.${line.key}`, line.params), line.side, line.tone];
    };
    expect(say(event({ type: 'lesson_sent' }))).toEqual([
      'Day 3 lesson sent on Slack',
      'course',
      'blue',
    ]);
    expect(
      say(event({ type: 'answered', answer: { text: 'Listen first', correct: false } })),
    ).toEqual(['Answered day 3: Listen first', 'learner', 'red']);
    expect(
      say(event({ type: 'paused', reason: 'trainer', by: 'trainer', by_name: 'Anna Rossi' })),
    ).toEqual(['Paused by Anna Rossi', 'course', 'orange']);
    expect(say(event({ type: 'resumed', by: 'learner' }))).toEqual([
      'Resumed: the learner wrote RESUME',
      'learner',
      'green',
    ]);
    // A trainer's pause kept before names were logged: still said, without a name.
    expect(say(event({ type: 'paused', reason: 'trainer', by: 'trainer' }))[0]).toBe(
      'Paused by a trainer',
    );
    expect(
      say(event({ type: 'completion_sent', day: 5, completion: { answered: 5, right: 4 } }))[0],
    ).toBe('Completion message sent: 4 of 5 answers right');
  });
});
