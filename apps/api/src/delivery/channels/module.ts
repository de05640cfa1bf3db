import type {
  TChannelKey,
  TChannelPreviewIssue,
  TConnectionField,
  TDeliveryFailureReason,
  TTemplateCreation,
} from '@ccp/schemas';

import type { Db } from '../../db/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ChannelSettings } from '../channel-settings.ts';
import type { Connector } from '../connector.ts';
import type { ChannelMessage, Connection, RenderedPayload } from '../message.ts';
import type { TextStyle } from '../render-common.ts';
import type { ChannelSetupParts, SetupContext } from './setup.ts';
import type { ChannelWebhooks, WebhookDeps } from './webhook.ts';

// A chat channel is one object: what the rest of the server must know of a provider, gathered in
// its folder (channels/<channel>/index.ts) and listed once in channels/index.ts. Code outside a
// channel's folder asks CHANNELS[key] instead of switching on the key, so a sixth channel is a
// folder and a line, and TypeScript names whatever else it lacks.

/** Something a channel cannot carry of a lesson as written, before it is put in words. */
export type PreviewIssue = { code: TChannelPreviewIssue; params: Record<string, string | number> };

/** What an OAuth install answered: the connection's ids and secrets, or the provider's refusal. */
export type OAuthGrant =
  | { ok: true; providerIds: Record<string, string>; secrets: Record<string, string> }
  | { ok: false; code: string; error?: unknown };

/** Connecting by the provider's OAuth flow instead of pasted secrets ("Add to Slack"). */
export type ChannelOAuth = {
  /** Where the administrator's browser is sent to approve the app. */
  authorizeUrl: (
    settings: ChannelSettings,
    params: { clientId: string; redirectUri: string; state: string },
  ) => string;
  /** The code the provider sent back, exchanged for the token (the same redirect URI again). */
  exchange: (
    settings: ChannelSettings,
    params: { clientId: string; clientSecret: string; code: string; redirectUri: string },
  ) => Promise<OAuthGrant>;
  /** Saved without its token yet: the install gets it, and tests the connection then. */
  awaitsInstall: (connection: Connection) => boolean;
};

export type ChannelModule = {
  key: TChannelKey;
  /** Which of a learner's contacts the channel reaches them by (CHANNEL_CONTACT). */
  contact: 'email' | 'phone';
  /** What the Channels form asks for (CONNECTION_FIELDS): ids, and secrets kept sealed. */
  connectionFields: readonly TConnectionField[];
  /** The provider's connector, over this server's settings (its fakes' URLs in tests). */
  createConnector: (settings: ChannelSettings, deps: { clock: Clock; db?: Db }) => Connector;
  /** The payload a message is sent as: the connector's, the outbox's and the wizard preview's. */
  render: (message: ChannelMessage) => RenderedPayload;
  /** How lesson HTML is written in the channel's messages. */
  textStyle: TextStyle;
  /**
   * What the channel cannot carry of a lesson as rendered (answers offered another way, a message
   * over the provider's size), for the wizard's preview; absent: everything fits.
   */
  previewIssues?: (lesson: { answers: string[] }, payload: RenderedPayload) => PreviewIssue[];
  /** The provider codes its connector names, as the reason a trainer is told (failure-reasons.ts). */
  failureCodes: Readonly<Record<string, TDeliveryFailureReason>>;
  /** The segment of the provider's webhook URL (/api/v1/webhooks/<path>), as providers were given it. */
  webhookPath: string;
  /** Its webhook endpoints there, each verifying the request as the provider signs it. */
  webhooks: (deps: WebhookDeps) => ChannelWebhooks;
  /** What the Channels page's setup guide shows: values to paste at the provider, files to upload. */
  setup: (context: SetupContext) => ChannelSetupParts;
  /** Its OAuth install, where the provider has one. */
  oauth?: ChannelOAuth;
  /**
   * Why this server cannot connect the channel as it is set up (a public address the provider
   * must call), in MESSAGES' words; absent or null: it can.
   */
  connectionRefusal?: (settings: ChannelSettings) => string | null;
  /**
   * Creates at the provider the message templates its guide lists that it lacks (WhatsApp's
   * "Create missing templates"), answering per template and language what the provider said.
   */
  createTemplates?: (
    settings: ChannelSettings,
    connection: Connection,
  ) => Promise<TTemplateCreation[]>;
};
