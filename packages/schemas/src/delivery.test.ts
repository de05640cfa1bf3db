import { describe, expect, it } from 'vitest';

import {
  CHANNEL_EVENT_TYPES,
  LEARNER_EVENT_TYPES,
  MAX_CHANNEL_EVENTS_PER_REQUEST,
  REMINDER_AFTER_HOURS,
  ZChannelEventSchema,
  ZChannelEventsRequestSchema,
  ZChannelParamsSchema,
  ZCreatedChannelTokenSchema,
} from './delivery.ts';
import { MESSAGES } from './messages.ts';

const DELIVERY = '3f1e0c9a-7b2d-4e5f-8a6b-1c2d3e4f5a6b';
const COURSE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const LEARNER = '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61';
const AT = '2026-11-23T08:31:00Z';

/** Field path → messages of a failed parse. */
const errorsOf = (value: unknown) => {
  const result = ZChannelEventsRequestSchema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    (errors[issue.path.join('.')] ??= []).push(issue.message);
  }
  return errors;
};

describe('channel events', () => {
  it('accepts every reported type with the identifiers it needs', () => {
    const events = [
      { type: 'delivered', delivery_uuid: DELIVERY, occurred_at: AT },
      { type: 'read', delivery_uuid: DELIVERY, occurred_at: '2026-11-23T09:31:00+01:00' },
      { type: 'answered', delivery_uuid: DELIVERY, answer: { correct: false }, occurred_at: AT },
      {
        type: 'answered',
        delivery_uuid: DELIVERY,
        answer: { correct: true, text: 'Yes' },
        occurred_at: AT,
      },
      { type: 'opted_in', course_uuid: COURSE, learner_uuid: LEARNER, occurred_at: AT },
      { type: 'declined', course_uuid: COURSE, learner_uuid: LEARNER, occurred_at: AT },
    ];
    expect(ZChannelEventsRequestSchema.parse({ events })).toEqual({ events });
  });

  it('names what is missing for each type', () => {
    expect(
      errorsOf({
        events: [
          { type: 'read', occurred_at: AT },
          { type: 'answered', delivery_uuid: DELIVERY, occurred_at: AT },
          { type: 'opted_in', learner_uuid: LEARNER, occurred_at: AT },
          { type: 'declined', occurred_at: AT },
        ],
      }),
    ).toEqual({
      'events.0.delivery_uuid': [MESSAGES.channelEventDeliveryRequired],
      'events.1.answer': [MESSAGES.channelEventAnswerRequired],
      'events.2.course_uuid': [MESSAGES.channelEventLearnerRequired],
      'events.3.course_uuid': [MESSAGES.channelEventLearnerRequired],
      'events.3.learner_uuid': [MESSAGES.channelEventLearnerRequired],
    });
  });

  it('refuses unknown types, the scheduler’s own types, bad times and answers', () => {
    const base = { delivery_uuid: DELIVERY, occurred_at: AT };
    expect(
      errorsOf({
        events: [
          { ...base, type: 'clicked' },
          { ...base, type: 'missed' },
          { ...base, type: 'read', occurred_at: '2026-11-23T08:31:00' },
          { ...base, type: 'read', occurred_at: 'yesterday' },
          { ...base, type: 'answered', answer: { correct: 'yes' } },
          { ...base, type: 'answered', answer: 'B' },
        ],
      }),
    ).toEqual({
      'events.0.type': [MESSAGES.channelEventTypeInvalid],
      'events.1.type': [MESSAGES.channelEventTypeInvalid],
      'events.2.occurred_at': [MESSAGES.channelEventOccurredAtInvalid],
      'events.3.occurred_at': [MESSAGES.channelEventOccurredAtInvalid],
      'events.4.answer.correct': [MESSAGES.channelEventAnswerInvalid],
      'events.5.answer': [MESSAGES.channelEventAnswerInvalid],
    });
    expect(
      ZChannelEventSchema.safeParse({ type: 'read', delivery_uuid: 'abc', occurred_at: AT })
        .success,
    ).toBe(false);
  });

  it('takes 1 to 500 events a request', () => {
    const read = { type: 'read', delivery_uuid: DELIVERY, occurred_at: AT };
    expect(errorsOf({ events: [] })).toEqual({ events: [MESSAGES.channelEventsCount] });
    expect(errorsOf({})).toEqual({ events: [MESSAGES.channelEventsCount] });
    expect(
      errorsOf({ events: Array.from({ length: MAX_CHANNEL_EVENTS_PER_REQUEST }, () => read) }),
    ).toEqual({});
    expect(errorsOf({ events: Array.from({ length: 501 }, () => read) })).toEqual({
      events: [MESSAGES.channelEventsCount],
    });
  });

  it('lets channels report only their own facts; the log also has the scheduler’s own', () => {
    expect(CHANNEL_EVENT_TYPES).toEqual(['delivered', 'read', 'answered', 'opted_in', 'declined']);
    expect(
      LEARNER_EVENT_TYPES.filter(
        (type) => !(CHANNEL_EVENT_TYPES as readonly string[]).includes(type),
      ),
    ).toEqual(['missed', 'reminder', 'question_not_closed']);
    expect(REMINDER_AFTER_HOURS).toBe(24);
  });
});

describe('channel params and tokens', () => {
  it('accepts the five channel keys only', () => {
    for (const channel of ['ms-teams', 'slack', 'whatsapp', 'webex', 'google-chat']) {
      expect(ZChannelParamsSchema.parse({ channel })).toEqual({ channel });
    }
    expect(ZChannelParamsSchema.safeParse({ channel: 'telegram' }).success).toBe(false);
  });

  it('shows a created token with its secret', () => {
    const token = {
      uuid: DELIVERY,
      channel: 'slack',
      token: 'ccp_ch_abc',
      created_at: AT,
      revoked_at: null,
    };
    expect(ZCreatedChannelTokenSchema.parse(token)).toEqual(token);
    expect(ZCreatedChannelTokenSchema.safeParse({ ...token, token: undefined }).success).toBe(
      false,
    );
  });
});
