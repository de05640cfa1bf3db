import { MESSAGES } from '@ccp/schemas';

import { AppError } from '../../lib/app-error.ts';
import type { DeliveryWake } from '../wake.ts';
import type { ChannelSettings } from '../channel-settings.ts';
import type { ConnectionDeps } from '../connections.ts';

// A provider's webhook as a channel module answers it (routes/api/webhooks/index.ts mounts
// them): the exact bytes and headers go to the channel, which verifies them the way its provider
// signs before reading anything, finds the connection they are for, and hands the event on.

/** What a webhook may use of the server. */
export type WebhookDeps = ConnectionDeps & {
  channelSettings: ChannelSettings;
  /** Where a scheduler runs: an answer's feedback goes at once (delivery/wake.ts). */
  deliveryWake?: DeliveryWake;
};

/** A provider's request, as it came: signatures are over the exact body. */
export type WebhookRequest = {
  raw: string;
  header: (name: string) => string | undefined;
  query: Record<string, string | undefined>;
  /** The path's parameters (`connection`: Google Chat's per-connection endpoint URL). */
  params: Record<string, string | undefined>;
};

/** What the provider is answered, always 200: a refusal is thrown (`unsigned`). */
export type WebhookAnswer = { body?: unknown; contentType?: 'text/plain' };

export type WebhookEndpoint = {
  /** What the API document says of it. */
  summary: string;
  handle: (request: WebhookRequest) => Promise<WebhookAnswer>;
};

/**
 * A channel's webhook endpoints at /api/v1/webhooks/<webhookPath>: the provider's POST, a GET
 * check of the subscription (WhatsApp), and a POST at a connection's own URL (Google Chat).
 */
export type ChannelWebhooks = {
  receive: WebhookEndpoint;
  check?: WebhookEndpoint;
  atConnection?: WebhookEndpoint;
};

/** An unsigned, wrongly signed or stale request: 401, and nothing changed. */
export const unsigned = () => new AppError('UNAUTHENTICATED', MESSAGES.webhookSignatureInvalid);
