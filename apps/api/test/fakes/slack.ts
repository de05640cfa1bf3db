import { slackSignature } from '../../src/delivery/channels/slack/inbound.ts';
import { listen, sendJson } from './http.ts';

// A fake Slack Web API on 127.0.0.1, speaking what @slack/web-api sends: POST /api/<method>
// form-encoded, the bot token as a Bearer header, `{ok, error}` answers, HTTP 429 with
// Retry-After when rate limited. It checks every chat.postMessage against Block Kit's published
// limits and Slack's mrkdwn escaping and refuses what Slack refuses (invalid_blocks,
// msg_too_long, channel_not_found), and taps buttons back to the app as Slack does: a
// block_actions payload signed v0 with the app's signing secret.
// "Add to Slack" (https://api.slack.com/authentication/oauth-v2): GET /oauth/v2/authorize sends
// the browser back to `redirect_uri` with a one-time `code` and the `state`; oauth.v2.access
// (https://api.slack.com/methods/oauth.v2.access) takes the code once, and "redirect_uri: This
// must match the originally submitted URI (if one was sent)", else `bad_redirect_uri`.
// An app made from a pasted manifest (https://api.slack.com/reference/manifests; credentials
// as apps.manifest.create answers them, https://api.slack.com/methods/apps.manifest.create)
// keeps its redirect URLs, and its authorize page refuses a `redirect_uri` that is not one of
// them ("Setting up your redirect URL", https://api.slack.com/authentication/oauth-v2); a
// browser sees the consent page and presses Allow, other clients go straight through as allowed.
// Rate limits are per method (https://api.slack.com/apis/rate-limits: "Rate limits are applied
// per method per workspace"): users.lookupByEmail is Tier 3, chat.postMessage "special".

export type FakeSlackUser = { id: string; email: string; teamId: string };
export type PostedMessage = {
  channel: string;
  userId: string;
  ts: string;
  text: string;
  blocks: Record<string, any>[];
};

const LIMITS = {
  text: 40_000,
  blocks: 50,
  section: 3000,
  header: 150,
  button: 75,
  value: 2000,
  actionId: 255,
  blockId: 255,
  elements: 25,
};

/** Why Slack would refuse these blocks, or null. */
export const blockProblems = (blocks: unknown): string[] => {
  const problems: string[] = [];
  if (!Array.isArray(blocks)) return ['blocks is not an array'];
  if (blocks.length > LIMITS.blocks) problems.push(`${blocks.length} blocks > ${LIMITS.blocks}`);
  const blockIds = new Set<string>();
  const checkMrkdwn = (text: string, where: string) => {
    // Bare & < > must be escaped; <…> only for links, mentions and channels.
    if (/&(?!(amp|lt|gt);)/.test(text)) problems.push(`${where}: unescaped &`);
    const withoutLinks = text.replace(
      /<(https?:\/\/[^|>\s]+|mailto:[^|>\s]+|@[UW][A-Z0-9]+|#C[A-Z0-9]+)(\|[^<>]*)?>/g,
      '',
    );
    if (/[<>]/.test(withoutLinks)) problems.push(`${where}: unescaped < or >`);
  };
  blocks.forEach((block: Record<string, any>, index) => {
    const where = `blocks[${index}]`;
    if (block.block_id !== undefined) {
      if (String(block.block_id).length > LIMITS.blockId)
        problems.push(`${where}.block_id too long`);
      if (blockIds.has(block.block_id)) problems.push(`${where}.block_id repeated`);
      blockIds.add(block.block_id);
    }
    switch (block.type) {
      case 'section': {
        const text = block.text?.text;
        if (typeof text !== 'string' || text.length === 0) problems.push(`${where}.text missing`);
        else if ([...text].length > LIMITS.section)
          problems.push(`${where}.text ${[...text].length} > ${LIMITS.section}`);
        else if (block.text.type === 'mrkdwn') checkMrkdwn(text, where);
        break;
      }
      case 'header':
        if (block.text?.type !== 'plain_text')
          problems.push(`${where}: header text must be plain_text`);
        if ([...(block.text?.text ?? '')].length > LIMITS.header)
          problems.push(`${where}: header > ${LIMITS.header}`);
        break;
      case 'context':
        if (
          !Array.isArray(block.elements) ||
          block.elements.length === 0 ||
          block.elements.length > 10
        )
          problems.push(`${where}: context needs 1-10 elements`);
        for (const element of block.elements ?? [])
          if (element.type === 'mrkdwn') checkMrkdwn(element.text, where);
        break;
      case 'divider':
        break;
      case 'actions': {
        const elements = (block.elements ?? []) as Record<string, any>[];
        if (elements.length === 0 || elements.length > LIMITS.elements)
          problems.push(`${where}: ${elements.length} elements`);
        const actionIds = new Set<string>();
        elements.forEach((element, position) => {
          const at = `${where}.elements[${position}]`;
          if (element.type !== 'button') problems.push(`${at}: not a button`);
          if (element.text?.type !== 'plain_text') problems.push(`${at}: text must be plain_text`);
          const label = element.text?.text ?? '';
          if ([...label].length === 0 || [...label].length > LIMITS.button)
            problems.push(`${at}: text length ${[...label].length}`);
          if (String(element.value ?? '').length > LIMITS.value)
            problems.push(`${at}: value too long`);
          if (!element.action_id || String(element.action_id).length > LIMITS.actionId)
            problems.push(`${at}: action_id`);
          if (actionIds.has(element.action_id)) problems.push(`${at}: action_id repeated`);
          actionIds.add(element.action_id);
        });
        break;
      }
      default:
        problems.push(`${where}: unknown block type ${String(block.type)}`);
    }
  });
  return problems;
};

/** What an app made from a manifest keeps: where Slack sends the browser back and posts to. */
export type FakeSlackApp = { clientId: string; redirectUrls: string[]; requestUrl: string };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Slack's consent page for an app: its name and scopes, and Allow (a GET back to the fake). */
const consentPage = (appName: string, scopes: string, allowUrl: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack</title></head><body>` +
  `<h1>${escapeHtml(appName)} is requesting permission to access the Fake team Slack workspace</h1>` +
  `<p>${escapeHtml(scopes)}</p><a role="button" href="${escapeHtml(allowUrl)}">Allow</a></body></html>`;

export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;

export const startFakeSlack = async ({
  token = 'xoxb-fake-token',
  teamId = 'T0FAKE',
  signingSecret = 'fake-signing-secret',
  clientSecret = 'fake-client-secret',
}: { token?: string; teamId?: string; signingSecret?: string; clientSecret?: string } = {}) => {
  const users: FakeSlackUser[] = [];
  const dms = new Map<string, string>(); // channel id → user id
  const messages: PostedMessage[] = [];
  const refused: { method: string; error: string; problems?: string[] }[] = [];
  // chat.update calls that went through, and the error the next call of a method answers.
  const updates: { channel: string; ts: string; blocks: Record<string, any>[] }[] = [];
  const failures = new Map<string, string>();
  const calls: string[] = [];
  const rateLimited = new Map<string, { remaining: number; retryAfter: number }>();
  const codes = new Map<string, { clientId: string; redirectUri: string | null }>();
  const apps = new Map<string, FakeSlackApp & { name: string }>();
  let seq = 0;
  let latencyMs = 0;

  const listening = await listen(async (request, response, body) => {
    const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    calls.push(method);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const form = Object.fromEntries(new URLSearchParams(body));
    const fail = (error: string, problems?: string[]) => {
      refused.push({ method, error, problems });
      sendJson(response, 200, {
        ok: false,
        error,
        ...(problems ? { response_metadata: { messages: problems } } : {}),
      });
    };
    const limited = rateLimited.get(method);
    if (limited && limited.remaining > 0) {
      limited.remaining -= 1;
      refused.push({ method, error: 'ratelimited' });
      response.writeHead(429, {
        'retry-after': String(limited.retryAfter),
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    if ((request.url ?? '').startsWith('/oauth/v2/authorize')) {
      const query = new URL(request.url ?? '', 'http://fake').searchParams;
      const redirectUri = query.get('redirect_uri');
      const app = apps.get(query.get('client_id') ?? '');
      if (app && redirectUri !== null && !app.redirectUrls.includes(redirectUri)) {
        response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<p>redirect_uri did not match any configured URIs</p>');
        return;
      }
      const allowing = (request.url ?? '').startsWith('/oauth/v2/authorize/allow');
      if (app && !allowing && (request.headers.accept ?? '').includes('text/html')) {
        const allow = `/oauth/v2/authorize/allow?${query.toString()}`;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(consentPage(app.name, query.get('scope') ?? '', allow));
        return;
      }
      const code = `code-${codes.size + 1}`;
      codes.set(code, { clientId: query.get('client_id') ?? '', redirectUri });
      const back = new URL(redirectUri ?? 'http://missing.invalid/');
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      response.end();
      return;
    }
    if (method === 'oauth.v2.access') {
      const issued = codes.get(form.code ?? '');
      if (!issued || issued.clientId !== form.client_id) return fail('invalid_code');
      if (form.client_secret !== clientSecret) return fail('bad_client_secret');
      if (issued.redirectUri !== null && form.redirect_uri !== issued.redirectUri)
        return fail('bad_redirect_uri');
      codes.delete(form.code ?? '');
      return sendJson(response, 200, {
        ok: true,
        access_token: token,
        token_type: 'bot',
        team: { id: teamId, name: 'Fake team' },
        bot_user_id: 'UBOT',
      });
    }
    if (request.headers.authorization !== `Bearer ${token}`) return fail('invalid_auth');
    switch (method) {
      case 'auth.test':
        return sendJson(response, 200, {
          ok: true,
          team_id: teamId,
          team: 'Fake team',
          user_id: 'UBOT',
          bot_id: 'BFAKE',
        });
      case 'users.lookupByEmail': {
        const user = users.find(
          (candidate) => candidate.email.toLowerCase() === (form.email ?? '').toLowerCase(),
        );
        if (!user) return fail('users_not_found');
        return sendJson(response, 200, {
          ok: true,
          user: { id: user.id, team_id: user.teamId, profile: { email: user.email } },
        });
      }
      case 'conversations.open': {
        const user = users.find((candidate) => candidate.id === form.users);
        if (!user) return fail('user_not_found');
        const channel = `D${user.id.slice(1)}`;
        dms.set(channel, user.id);
        return sendJson(response, 200, { ok: true, channel: { id: channel } });
      }
      case 'chat.postMessage': {
        const channel = form.channel ?? '';
        const userId = dms.get(channel);
        if (!userId) return fail('channel_not_found');
        const text = form.text ?? '';
        if (text.length > LIMITS.text) return fail('msg_too_long');
        let blocks: Record<string, any>[] = [];
        try {
          blocks = form.blocks ? (JSON.parse(form.blocks) as Record<string, any>[]) : [];
        } catch {
          return fail('invalid_blocks_format');
        }
        const problems = blockProblems(blocks);
        if (problems.length > 0) return fail('invalid_blocks', problems);
        seq += 1;
        const ts = `1700000000.${String(seq).padStart(6, '0')}`;
        messages.push({ channel, userId, ts, text, blocks });
        return sendJson(response, 200, { ok: true, channel, ts, message: { text, blocks } });
      }
      case 'chat.update': {
        // https://docs.slack.dev/reference/methods/chat.update: `channel` and `ts` are required
        // (missing: invalid_arguments); "message_not_found: No message exists with the requested
        // timestamp"; `blocks`, when sent, replace the message's previous blocks.
        if (!form.channel || !form.ts) return fail('invalid_arguments');
        const failing = failures.get(method);
        if (failing) {
          failures.delete(method);
          return fail(failing);
        }
        const at = messages.findIndex(
          (candidate) => candidate.channel === form.channel && candidate.ts === form.ts,
        );
        const message = messages[at];
        if (!message) return fail('message_not_found');
        let blocks: Record<string, any>[] = message.blocks;
        try {
          if (form.blocks) blocks = JSON.parse(form.blocks) as Record<string, any>[];
        } catch {
          return fail('invalid_blocks_format');
        }
        const problems = blockProblems(blocks);
        if (problems.length > 0) return fail('invalid_blocks', problems);
        // A new object: a PostedMessage a test kept is what a learner's stale client still shows.
        messages[at] = { ...message, blocks, text: form.text ?? message.text };
        updates.push({ channel: form.channel, ts: form.ts, blocks });
        return sendJson(response, 200, { ok: true, channel: form.channel, ts: form.ts });
      }
      default:
        return fail('unknown_method');
    }
  });

  /** A request as Slack signs it: v0 HMAC of the timestamp and the raw body. */
  const signed = (body: string, contentType: string, nowSeconds: number, secret: string) => {
    const timestamp = String(nowSeconds);
    return {
      body,
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(secret, timestamp, body),
      },
    };
  };

  return {
    baseUrl: listening.baseUrl,
    apiUrl: `${listening.baseUrl}/api/`,
    authorizeUrl: `${listening.baseUrl}/oauth/v2/authorize`,
    clientSecret,
    token,
    teamId,
    signingSecret,
    messages,
    refused,
    calls,
    close: listening.close,
    /**
     * An administrator pastes `manifest` at api.slack.com/apps ("Create New App → From a
     * manifest"): the app's credentials, as apps.manifest.create answers them.
     */
    createApp: (manifest: Record<string, any>) => {
      const redirectUrls = (manifest.oauth_config?.redirect_urls ?? []) as string[];
      const requestUrl = String(manifest.settings?.interactivity?.request_url ?? '');
      if (!requestUrl || redirectUrls.length === 0) throw new Error('manifest without URLs');
      const clientId = `${teamId.slice(1)}.${apps.size + 1}`;
      const name = String(manifest.display_information?.name ?? 'App');
      apps.set(clientId, { clientId, redirectUrls, requestUrl, name });
      return {
        app_id: `A0FAKE${apps.size}`,
        credentials: {
          client_id: clientId,
          client_secret: clientSecret,
          signing_secret: signingSecret,
        },
      };
    },
    /** The app made from a manifest with this client id. */
    appOf: (clientId: string): FakeSlackApp | undefined => apps.get(clientId),
    addUser: (email: string): FakeSlackUser => {
      const user = { id: `U${String(users.length + 1).padStart(8, '0')}`, email, teamId };
      users.push(user);
      return user;
    },
    updates,
    /** The next call of `method` answers `{ok: false, error}`. */
    failNext: (method: string, error: string) => {
      failures.set(method, error);
    },
    /** The next `count` calls of `method` (default: posts) answer HTTP 429 with Retry-After. */
    rateLimit: (count: number, retryAfterSeconds: number, method = 'chat.postMessage') => {
      rateLimited.set(method, { remaining: count, retryAfter: retryAfterSeconds });
    },
    setLatency: (ms: number) => {
      latencyMs = ms;
    },
    /**
     * The Events API request Slack sends when `userId` writes `text` in the app's DM
     * (`message.im`), signed v0 at `nowSeconds`; `eventId` repeats for Slack's retries.
     */
    messageEvent: (
      user: FakeSlackUser,
      text: string,
      {
        nowSeconds,
        secret = signingSecret,
        eventId = `Ev${String((seq += 1)).padStart(9, '0')}`,
      }: { nowSeconds: number; secret?: string; eventId?: string },
    ) => {
      const body = JSON.stringify({
        token: 'deprecated-verification-token',
        team_id: teamId,
        api_app_id: 'AFAKE',
        type: 'event_callback',
        event_id: eventId,
        event_time: nowSeconds,
        event: {
          type: 'message',
          channel_type: 'im',
          channel: `D${user.id.slice(1)}`,
          user: user.id,
          // Slack escapes &, < and > in a message's text.
          text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
          ts: `${nowSeconds}.000100`,
        },
      });
      return signed(body, 'application/json', nowSeconds, secret);
    },
    /** Slack's check of the Events API Request URL, signed like any request. */
    urlVerification: (nowSeconds: number, secret = signingSecret) => {
      const body = JSON.stringify({
        token: 'x',
        challenge: 'fake-challenge',
        type: 'url_verification',
      });
      return signed(body, 'application/json', nowSeconds, secret);
    },
    /**
     * The interactivity request Slack sends when `userId` taps button `index` of `message`'s
     * actions block (the first, or the `block`-th of a message with several): form-encoded
     * `payload`, signed v0 at `nowSeconds` (the app's clock).
     */
    tapRequest: (
      message: PostedMessage,
      index: number,
      {
        userId = message.userId,
        nowSeconds,
        secret = signingSecret,
        block = 0,
      }: { userId?: string; nowSeconds: number; secret?: string; block?: number },
    ) => {
      const actions = message.blocks.filter((item) => item.type === 'actions')[block];
      const button = actions?.elements?.[index];
      if (!button) throw new Error(`no button ${index} in the message`);
      const payload = {
        type: 'block_actions',
        team: { id: teamId, domain: 'fake' },
        user: { id: userId, team_id: teamId },
        api_app_id: 'AFAKE',
        container: { type: 'message', message_ts: message.ts, channel_id: message.channel },
        trigger_id: `trigger.${message.ts}`,
        channel: { id: message.channel },
        actions: [
          {
            type: 'button',
            action_id: button.action_id,
            block_id: actions.block_id,
            value: button.value,
            text: button.text,
            action_ts: `${nowSeconds}.${String(index).padStart(6, '0')}`,
          },
        ],
      };
      const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      return signed(body, 'application/x-www-form-urlencoded', nowSeconds, secret);
    },
  };
};
