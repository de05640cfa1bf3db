import { timingSafeEqual } from 'node:crypto';

import {
  CONNECTION_FIELDS,
  MESSAGES,
  ZChannelConnectionResponseSchema,
  ZChannelConnectionsResponseSchema,
  ZChannelParamsSchema,
  ZChannelSetupResponseSchema,
  ZConnectionInputSchema,
  ZSlackInstallResponseSchema,
  ZTemplateCreationResponseSchema,
  connectionInputSchema,
} from '@ccp/schemas';
import type { TChannelKey } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { findCompanyName } from '../../../accounts/companies-repository.ts';
import { CHANNELS } from '../../../delivery/channels/index.ts';
import { proofsOfFailure } from '../../../delivery/channels/proofs.ts';
import { publicUrlRefusal } from '../../../delivery/channels/setup.ts';
import { SLACK_OAUTH_PATH, slackRedirectUrl } from '../../../delivery/channels/slack/oauth.ts';
import {
  TEAMS_APP_PACKAGE_FILE,
  TEAMS_APP_PACKAGE_PATH,
  TEAMS_MANIFEST_VERSION,
  teamsAppPackage,
  teamsPackageBot,
} from '../../../delivery/channels/teams/app-package.ts';
import { errorText } from '../../../delivery/connector.ts';
import {
  deleteConnection,
  listConnections,
  loadConnection,
  recordConnectionTest,
  saveConnection,
} from '../../../delivery/connections.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { localizeMessage } from '../../../i18n/messages.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';
import type { Connection, ConnectionCheck } from '../../../delivery/message.ts';

// The Channels page's API: everyone of the company sees each channel's status; administrators
// connect a provider (fields of CONNECTION_FIELDS, secrets sealed), test it, disconnect it, and
// install the Slack app with "Add to Slack" (OAuth v2 with a signed, expiring state).

const TAGS = ['channels'];
const STATE_TTL_MS = 10 * 60 * 1000;

const adminOf = (request: FastifyRequest) => {
  const { user } = authOf(request);
  if (user.is_admin !== 1) throw new AppError('FORBIDDEN', MESSAGES.connectionsAdminOnly);
  return user;
};

const needsKey = (app: FastifyInstance) => {
  if (!app.secretBox) throw new AppError('CONFLICT', MESSAGES.secretsKeyMissing);
};

/** The channels this server has a connector for. */
const AVAILABLE = Object.keys(CHANNELS) as TChannelKey[];

/**
 * Runs the provider's connection test and records its outcome; 409 when the provider account
 * (its key) is another company's, which the connection then shows as its error.
 */
const testConnection = async (app: FastifyInstance, companyUuid: string, channel: TChannelKey) => {
  const connection = await loadConnection(app, companyUuid, channel);
  if (!connection) throw notFound(MESSAGES.connectionNotFound);
  const connector = CHANNELS[channel].createConnector(app.channelSettings, {
    clock: app.clock,
    db: app.db,
  });
  let check: ConnectionCheck;
  try {
    check = await connector.test(connection);
  } catch (error) {
    await recordConnectionTest(app, connection, {
      ok: false,
      error: errorText(error),
      proofs: proofsOfFailure(error),
    });
    return;
  }
  if ((await recordConnectionTest(app, connection, { ok: true, check })) === 'key_taken') {
    throw new AppError('CONFLICT', MESSAGES.connectionKeyTaken);
  }
};

/**
 * A channel this server cannot connect as it is set up (Webex brings answers back only to this
 * server's public https address): refused with its reason instead of showing connected.
 */
const refuseUnreachable = (app: FastifyInstance, channel: TChannelKey) => {
  const refusal = CHANNELS[channel].connectionRefusal?.(app.channelSettings);
  if (refusal) throw new AppError('CONFLICT', refusal);
};

/** A connection that waits for its OAuth install ("Add to Slack") to get its token. */
const awaitsInstall = (connection: Connection | null) =>
  !!connection && !!CHANNELS[connection.channel].oauth?.awaitsInstall(connection);

/** Slack's "Add to Slack" (its module's OAuth install). */
const slackOAuth = () => {
  const oauth = CHANNELS.slack.oauth;
  if (!oauth) throw new AppError('VALIDATION_FAILED', MESSAGES.connectionNotAvailable);
  return oauth;
};

const connectionOf = async (app: FastifyInstance, companyUuid: string, channel: TChannelKey) => {
  const all = await listConnections(app, companyUuid, { full: true, available: AVAILABLE });
  return all.find((item) => item.channel === channel)!;
};

export const channelConnectionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/channel-connections',
    {
      schema: {
        tags: TAGS,
        summary: 'The company’s five channels: connected or not, and the last error',
        description:
          'Administrators also see the provider ids and which secrets are stored (never their values); others the status only. Nothing is sent on a channel without a working connection: its lessons fail with the reason `channel_not_connected` (or `channel_connection_error`). `proofs` (administrators) lists what the last test proved of the path a lesson takes and what it could not; Google Chat is `awaiting_verification` until Chat’s first signed event for the chosen audience arrives.',
        response: { 200: ZChannelConnectionsResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      return {
        data: await listConnections(app, user.company_uuid, {
          full: user.is_admin === 1,
          available: AVAILABLE,
        }),
      };
    },
  );

  app.put(
    '/api/v1/channel-connections/:channel',
    {
      schema: {
        tags: TAGS,
        summary: 'Connect a provider (administrators), then test the connection',
        'x-errors': [409],
        description:
          'Fields by channel: see CONNECTION_FIELDS. A secret left empty keeps the stored one. Answers the connection with its status after the test (connected, or error with the provider’s message). Webex answers 409 when this server has no public https address (CCP_PUBLIC_URL; plain http only on 127.0.0.1 or localhost): its answers could never come back.',
        params: ZChannelParamsSchema,
        body: ZConnectionInputSchema,
        response: { 200: ZChannelConnectionResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      needsKey(app);
      const { channel } = request.params;
      if (!AVAILABLE.includes(channel)) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.connectionNotAvailable);
      }
      refuseUnreachable(app, channel);
      const stored = await loadConnection(app, user.company_uuid, channel);
      const storedSecrets = Object.keys(stored?.secrets ?? {}).filter(
        (key) => stored?.secrets[key],
      );
      const parsed = connectionInputSchema(channel, storedSecrets).safeParse(request.body.fields);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) {
          const key = `fields.${issue.path.join('.')}`;
          (errors[key] ??= []).push(issue.message);
        }
        throw validationError(errors);
      }
      const providerIds: Record<string, string> = {};
      const secrets: Record<string, string> = {};
      for (const field of CONNECTION_FIELDS[channel]) {
        const value = (parsed.data[field.key] ?? '').trim();
        if (field.secret) {
          if (value !== '') secrets[field.key] = value;
        } else providerIds[field.key] = value;
      }
      await saveConnection(app, {
        companyUuid: user.company_uuid,
        channel,
        providerIds,
        secrets,
        userUuid: user.uuid,
      });
      // A Slack app saved with its client id and secret but no bot token waits for "Add to
      // Slack", which gets the token by OAuth and tests it then.
      if (!awaitsInstall(await loadConnection(app, user.company_uuid, channel))) {
        await testConnection(app, user.company_uuid, channel);
      }
      return { data: await connectionOf(app, user.company_uuid, channel) };
    },
  );

  app.post(
    '/api/v1/channel-connections/:channel/test',
    {
      schema: {
        tags: TAGS,
        summary: 'Test a connection with the provider (administrators)',
        params: ZChannelParamsSchema,
        response: { 200: ZChannelConnectionResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      needsKey(app);
      refuseUnreachable(app, request.params.channel);
      await testConnection(app, user.company_uuid, request.params.channel);
      return { data: await connectionOf(app, user.company_uuid, request.params.channel) };
    },
  );

  app.delete(
    '/api/v1/channel-connections/:channel',
    {
      schema: {
        tags: TAGS,
        summary:
          'Disconnect a provider (administrators): nothing is sent on the channel until it is connected again',
        params: ZChannelParamsSchema,
        response: { 200: ZChannelConnectionResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      if (!(await deleteConnection(app, user.company_uuid, request.params.channel))) {
        throw notFound(MESSAGES.connectionNotFound);
      }
      return { data: await connectionOf(app, user.company_uuid, request.params.channel) };
    },
  );

  app.get(
    '/api/v1/channel-connections/:channel/setup',
    {
      schema: {
        tags: TAGS,
        summary: 'A provider’s setup guide (administrators): what to paste at the provider',
        description:
          'The addresses the provider must call (webhook, redirect, messaging endpoint), scopes and events, all built from this server’s public URL (CCP_PUBLIC_URL), and the files to upload there (Slack’s app manifest). `refusal` says, in the user’s language, why the provider could not reach this server as it is set up.',
        params: ZChannelParamsSchema,
        response: { 200: ZChannelSetupResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      const { channel } = request.params;
      const connection = await loadConnection(app, user.company_uuid, channel);
      const refusal =
        publicUrlRefusal(app.publicUrl) ??
        CHANNELS[channel].connectionRefusal?.(app.channelSettings);
      return {
        data: {
          ...CHANNELS[channel].setup({ publicUrl: app.publicUrl, connection }),
          refusal: refusal ? localizeMessage(refusal, requestLanguage(request)) : null,
        },
      };
    },
  );

  app.get(
    TEAMS_APP_PACKAGE_PATH,
    {
      schema: {
        tags: TAGS,
        summary: 'The Teams app package to upload in the Teams admin centre (administrators)',
        description: `A zip with manifest.json (Teams manifest schema v${TEAMS_MANIFEST_VERSION}), color.png (192×192), outline.png (32×32, white on transparent) and the it/de texts: the bot is the saved connection’s app id, in personal scope only, and the valid domain is this server’s public URL (CCP_PUBLIC_URL). Answers 409 with the reason when the public URL is not https or no app id (a GUID) is saved.`,
        response: {
          200: z.any().meta({ type: 'string', format: 'binary', description: 'A zip file' }),
        },
        'x-media': { 200: 'application/zip' },
        'x-errors': [409],
      },
    },
    async (request, reply) => {
      const user = adminOf(request);
      const connection = await loadConnection(app, user.company_uuid, 'ms-teams');
      const checked = teamsPackageBot(app.publicUrl, connection?.providerIds.app_id);
      if ('refusal' in checked) throw new AppError('CONFLICT', checked.refusal);
      const zip = teamsAppPackage({
        appId: checked.appId,
        publicUrl: app.publicUrl,
        companyName: (await findCompanyName(app, user.company_uuid)) ?? '',
        now: app.clock.now(),
      });
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${TEAMS_APP_PACKAGE_FILE}"`)
        .send(zip);
    },
  );

  app.post(
    '/api/v1/channel-connections/whatsapp/templates',
    {
      schema: {
        tags: TAGS,
        summary:
          '“Create missing templates”: WhatsApp’s message templates, at Meta (administrators)',
        'x-errors': [409],
        description:
          'Creates through the Graph API (`POST /{waba-id}/message_templates`) every template of the setup guide that the WhatsApp Business Account lacks in its language (en, it, de: every language a learner may have), then tests the connection again. Answers per template and language: `created` with Meta’s status (PENDING while Meta reviews it), `exists` with its status, or `failed` with Meta’s message (e.g. a token without whatsapp_business_management).',
        response: { 200: ZTemplateCreationResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      needsKey(app);
      const connection = await loadConnection(app, user.company_uuid, 'whatsapp');
      const create = CHANNELS.whatsapp.createTemplates;
      if (!connection || !create) throw notFound(MESSAGES.connectionNotFound);
      const created = await create(app.channelSettings, connection);
      // The card's test then shows what Meta holds now: the new templates pending its review.
      await testConnection(app, user.company_uuid, 'whatsapp');
      return { data: created };
    },
  );

  // "Add to Slack": the authorize URL with a state naming the company, signed and expiring.
  app.post(
    '/api/v1/channel-connections/slack/install',
    {
      schema: {
        tags: TAGS,
        summary: '“Add to Slack”: the Slack OAuth v2 authorize URL (administrators)',
        description:
          'Needs the Slack app’s client id and secret saved first. Slack sends the administrator back to `/api/v1/webhooks/slack/oauth`, which stores the bot token and tests it.',
        response: { 200: ZSlackInstallResponseSchema },
      },
    },
    async (request) => {
      const user = adminOf(request);
      needsKey(app);
      const connection = await loadConnection(app, user.company_uuid, 'slack');
      const clientId = connection?.providerIds.client_id;
      if (!connection || !clientId || !connection.secrets.client_secret) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.slackInstallNeedsClient);
      }
      // The redirect URI is built from the public URL (never the request's Host) and travels in
      // the signed state: Slack's token exchange must name the same one the authorize URL
      // carried, else it answers bad_redirect_uri (oauth.v2.access).
      const redirectUri = slackRedirectUrl(app.publicUrl);
      const state = signState(app, {
        company: user.company_uuid,
        at: app.clock.now().getTime(),
        redirect: redirectUri,
      });
      const url = slackOAuth().authorizeUrl(app.channelSettings, { clientId, redirectUri, state });
      return { data: { url } };
    },
  );

  app.get(
    SLACK_OAUTH_PATH,
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary: 'Slack OAuth v2 redirect: exchanges the code for the bot token',
        // Slack sends `code`, or `error` (access_denied) when the administrator cancels.
        querystring: z.object({
          code: z.string().max(500).optional(),
          error: z.string().max(200).optional(),
          state: z.string().max(2000),
        }),
        'x-redirect':
          'Back to the Channels page: `?connected=slack`, or `?slack_install=failed&reason=<Slack’s code>`',
      },
    },
    async (request, reply) => {
      const failed = (reason: string) =>
        reply.redirect(`/channels?slack_install=failed&reason=${encodeURIComponent(reason)}`);
      const claims = openState(app, request.query.state);
      if (!claims) return failed('state_invalid');
      if (request.query.error !== undefined || request.query.code === undefined) {
        return failed(request.query.error ?? 'no_code');
      }
      const connection = await loadConnection(app, claims.company, 'slack');
      const clientId = connection?.providerIds.client_id;
      const clientSecret = connection?.secrets.client_secret;
      if (!connection || !clientId || !clientSecret) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.slackInstallNeedsClient);
      }
      // The administrator is in a browser here: a refusal goes back to the Channels page, which
      // says what Slack answered, never a bare error document.
      const grant = await slackOAuth().exchange(app.channelSettings, {
        clientId,
        clientSecret,
        code: request.query.code,
        redirectUri: claims.redirect,
      });
      if (!grant.ok) {
        if (grant.error !== undefined) {
          request.log.warn({ err: grant.error }, 'Add to Slack: the token exchange failed');
        }
        return failed(grant.code);
      }
      await saveConnection(app, {
        companyUuid: claims.company,
        channel: 'slack',
        providerIds: grant.providerIds,
        secrets: grant.secrets,
        userUuid: null,
      });
      await testConnection(app, claims.company, 'slack');
      return reply.redirect('/channels?connected=slack');
    },
  );
};

// --- The OAuth state: company and time, HMAC-signed with a key derived from CCP_SECRETS_KEY ---

type StateClaims = { company: string; at: number; redirect: string };

const stateMac = (app: FastifyInstance, body: string) =>
  app.secretBox?.mac('slack-oauth-state', body) ?? '';

const signState = (app: FastifyInstance, claims: StateClaims) => {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${stateMac(app, body)}`;
};

const openState = (app: FastifyInstance, state: string): StateClaims | null => {
  const [body, mac] = state.split('.');
  if (!body || !mac) return null;
  const expected = Buffer.from(stateMac(app, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StateClaims;
    const age = app.clock.now().getTime() - claims.at;
    return typeof claims.company === 'string' &&
      typeof claims.redirect === 'string' &&
      age >= 0 &&
      age <= STATE_TTL_MS
      ? claims
      : null;
  } catch {
    return null;
  }
};
