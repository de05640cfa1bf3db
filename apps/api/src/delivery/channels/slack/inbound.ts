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
