import type { ErrorCode as SlackErrorCode, WebAPICallError, WebClient } from '@slack/web-api';

import { commonJsExports } from '../../../lib/commonjs.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connector } from '../../connector.ts';
import { renderSlack, renderSlackClosed } from './render.ts';
import type { Connection, ErrorVerdict } from '../../message.ts';
import { LEARNER_REACH, proof } from '../proofs.ts';

// The Slack connector: @slack/web-api against the configured base URL (a fake in tests), no
// retries of its own (the scheduler decides), rate limits surfaced instead of waited.
// Learners are found by e-mail (users.lookupByEmail, scope users:read.email) and reached in the
// DM the bot opens with them (conversations.open, im:write), then chat.postMessage (chat:write).

// chat.postMessage is "special" tier: about one message a second per conversation, bursts
// allowed. Every learner has a conversation of their own, so the connection as a whole is paced
// at this rate (a named choice: docs/decisions.md).
export const SLACK_MESSAGES_PER_SECOND = 20;

const REQUEST_TIMEOUT_MS = 10_000;

// Platform errors that will not change by trying again.
const PERMANENT_ERRORS = new Set([
  'users_not_found',
  'user_not_found',
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'account_inactive',
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'no_permission',
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'too_many_attachments',
  'cannot_dm_bot',
  'user_disabled',
  'team_access_not_granted',
  'restricted_action',
  'ekm_access_denied',
  // chat.update's own (https://docs.slack.dev/reference/methods/chat.update#errors).
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
]);

/** A Slack Web API client; @slack/web-api (and axios) load on first use, not at start (issue 18). */
export const slackClient = async (
  settings: ChannelSettings['slack'],
  token: string | undefined,
): Promise<WebClient> => {
  const { WebClient: Client } = commonJsExports(await import('@slack/web-api'));
  return new Client(token, {
    slackApiUrl: settings.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: REQUEST_TIMEOUT_MS,
    allowAbsoluteUrls: false,
  });
};

// @slack/web-api's ErrorCode values, kept here so classifying an error loads nothing; each is
// typed as the package's enum member, so a change of value there fails the type check here.
const slackCode = <T extends SlackErrorCode>(value: `${T}`): T => value as unknown as T;
const ErrorCode = {
  RequestError: slackCode<SlackErrorCode.RequestError>('slack_webapi_request_error'),
  HTTPError: slackCode<SlackErrorCode.HTTPError>('slack_webapi_http_error'),
  PlatformError: slackCode<SlackErrorCode.PlatformError>('slack_webapi_platform_error'),
  RateLimitedError: slackCode<SlackErrorCode.RateLimitedError>('slack_webapi_rate_limited_error'),
};

const isSlackError = (error: unknown): error is WebAPICallError =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  typeof error.code === 'string' &&
  error.code.startsWith('slack_webapi_');

/** True when the request never reached Slack (the connection was refused or not resolved). */
const neverSent = (error: Error): boolean => {
  const cause = (error as { cause?: { code?: string } }).cause;
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(cause?.code ?? '');
};

export const classifySlackError = (error: unknown): ErrorVerdict => {
  if (!isSlackError(error)) return { kind: 'unknown_outcome', code: 'error' };
  switch (error.code) {
    case ErrorCode.RateLimitedError:
      return {
        kind: 'rate_limited',
        code: 'ratelimited',
        retryAfterMs: Math.max(1, error.retryAfter) * 1000,
      };
    case ErrorCode.PlatformError: {
      const code = error.data.error;
      if (code === 'ratelimited') return { kind: 'rate_limited', code };
      if (PERMANENT_ERRORS.has(code)) return { kind: 'permanent', code };
      // Slack: internal_error "possible some aspect of the operation succeeded".
      if (code === 'service_unavailable' || code === 'team_added_to_org')
        return { kind: 'retry', code };
      return { kind: 'unknown_outcome', code };
    }
    case ErrorCode.HTTPError:
      // 503 is Slack's front door refusing; other 5xx may have come after the post.
      if (error.statusCode === 429) return { kind: 'rate_limited', code: 'http_429' };
      if (error.statusCode === 503) return { kind: 'retry', code: 'http_503' };
      if (error.statusCode >= 400 && error.statusCode < 500)
        return { kind: 'permanent', code: `http_${error.statusCode}` };
      return { kind: 'unknown_outcome', code: `http_${error.statusCode}` };
    case ErrorCode.RequestError:
      return neverSent(error.original)
        ? { kind: 'retry', code: 'unreachable' }
        : { kind: 'unknown_outcome', code: 'request_error' };
    default:
      return { kind: 'permanent', code: 'slack_error' };
  }
};

const botToken = (connection: Connection) => connection.secrets.bot_token ?? '';

export const createSlackConnector = (settings: ChannelSettings['slack']): Connector => {
  const clients = new Map<string, Promise<WebClient>>();
  const clientOf = (connection: Connection) => {
    const token = botToken(connection);
    let client = clients.get(token);
    if (!client) {
      client = slackClient(settings, token);
      clients.set(token, client);
    }
    return client;
  };
  return {
    channel: 'slack',
    ratePerSecond: SLACK_MESSAGES_PER_SECOND,
    resolveIdentity: async (connection, learner) => {
      const client = await clientOf(connection);
      const found = await client.users.lookupByEmail({ email: learner.address });
      const userId = found.user?.id;
      if (!userId) throw new Error('users.lookupByEmail answered no user id');
      const opened = await client.conversations.open({ users: userId, return_im: false });
      return {
        providerUserId: userId,
        conversationId: opened.channel?.id ?? null,
        lastInboundAt: null,
      };
    },
    send: async (connection, identity, message) => {
      const rendered = renderSlack(message);
      const payload = rendered as {
        text: string;
        blocks: Record<string, unknown>[];
        unfurl_links: boolean;
      };
      const result = await (
        await clientOf(connection)
      ).chat.postMessage({
        channel: identity.conversationId ?? identity.providerUserId,
        text: payload.text,
        blocks: payload.blocks as never,
        unfurl_links: false,
        unfurl_media: false,
      });
      return {
        providerMessageId: `${result.channel ?? ''}:${result.ts ?? ''}`,
        payload: rendered,
      };
    },
    // chat.update (https://docs.slack.dev/reference/methods/chat.update): the message by its
    // `channel` and `ts`, as chat.postMessage answered them; `blocks` replace the old ones.
    closeQuestion: async (connection, _identity, question) => {
      const [channel = '', ts = ''] = question.providerMessageId.split(':');
      const closed = renderSlackClosed(question) as { text: string; blocks: unknown[] };
      await (
        await clientOf(connection)
      ).chat.update({ channel, ts, text: closed.text, blocks: closed.blocks as never });
    },
    test: async (connection) => {
      const result = await (await clientOf(connection)).auth.test();
      if (!result.team_id) throw new Error('auth.test answered no team id');
      return {
        providerKey: result.team_id,
        providerIds: {
          team_id: result.team_id,
          team: result.team ?? '',
          bot_user_id: result.user_id ?? '',
          ...(result.bot_id ? { bot_id: result.bot_id } : {}),
        },
        // Slack calls the request URL only for a user's message or click; it checked the URL
        // once (url_verification) when the administrator saved it in the app.
        proofs: [
          proof('credentials', 'proved', result.team),
          proof('bot_identity', 'proved', result.user ?? result.user_id),
          proof('webhook_reachability', 'not_provable'),
          LEARNER_REACH,
        ],
      };
    },
    classifyError: classifySlackError,
  };
};
