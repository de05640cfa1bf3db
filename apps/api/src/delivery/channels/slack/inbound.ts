import { createHmac, timingSafeEqual } from 'node:crypto';

import type { InboundAction } from '../../inbound.ts';
import { parseAction } from '../../inbound.ts';

// Slack's requests to the app (interactivity: a learner tapped a button), verified as Slack
// signs them: `v0=` HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>` with the app's
// signing secret, and a timestamp at most five minutes from now (replays are refused).
// https://api.slack.com/authentication/verifying-requests-from-slack

export const SLACK_MAX_AGE_SECONDS = 5 * 60;

export const slackSignature = (signingSecret: string, timestamp: string, rawBody: string) =>
  `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;

/** True when the request is Slack's, signed with this secret, and fresh at `nowMs`. */
export const verifySlackRequest = (
  signingSecret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: string,
  nowMs: number,
): boolean => {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
};

/** The parts of a block_actions payload this app reads. */
export type SlackInteraction = {
  teamId: string;
  userId: string;
  /** Unique per tap: the message's ts and the action's. */
  eventId: string;
  action: InboundAction | null;
};

/** The team of a form-encoded interactivity body, read before verifying to pick the secret. */
export const parseSlackInteraction = (rawBody: string): SlackInteraction | null => {
  const payload = new URLSearchParams(rawBody).get('payload');
  if (!payload) return null;
  let data: {
    type?: string;
    team?: { id?: string };
    user?: { id?: string; team_id?: string };
    container?: { message_ts?: string; channel_id?: string };
    actions?: { value?: string; action_ts?: string; action_id?: string }[];
  };
  try {
    data = JSON.parse(payload) as typeof data;
  } catch {
    return null;
  }
  const teamId = data.team?.id ?? data.user?.team_id;
  const userId = data.user?.id;
  if (!teamId || !userId) return null;
  const first = data.type === 'block_actions' ? data.actions?.[0] : undefined;
  return {
    teamId,
    userId,
    eventId: `${data.container?.channel_id ?? ''}:${data.container?.message_ts ?? ''}:${first?.action_ts ?? ''}:${userId}`,
    action: first ? parseAction(first.value) : null,
  };
};

/**
 * An Events API request (JSON): Slack's URL check, or a message a learner wrote in the app's DM
 * (`message.im`, scope im:history), which answers an open question. The bot's own messages and
 * edits (a subtype) are not the learner's words.
 */
export type SlackEventRequest =
  | { kind: 'url_verification'; challenge: string }
  | { kind: 'message'; teamId: string; eventId: string; userId: string; text: string }
  | { kind: 'other'; teamId: string };

export const parseSlackEvent = (rawBody: string): SlackEventRequest | null => {
  let data: {
    type?: string;
    challenge?: string;
    team_id?: string;
    event_id?: string;
    event?: {
      type?: string;
      channel_type?: string;
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
    };
  };
  try {
    data = JSON.parse(rawBody) as typeof data;
  } catch {
    return null;
  }
  if (data.type === 'url_verification' && typeof data.challenge === 'string') {
    return { kind: 'url_verification', challenge: data.challenge };
  }
  if (data.type !== 'event_callback' || !data.team_id) return null;
  const event = data.event;
  if (
    event?.type === 'message' &&
    event.channel_type === 'im' &&
    !event.subtype &&
    !event.bot_id &&
    event.user &&
    typeof event.text === 'string' &&
    data.event_id
  ) {
    return {
      kind: 'message',
      teamId: data.team_id,
      eventId: data.event_id,
      userId: event.user,
      // Slack escapes these three in a message's text.
      text: event.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
    };
  }
  return { kind: 'other', teamId: data.team_id };
};
