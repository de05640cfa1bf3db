import { MESSAGES } from '@ccp/schemas';
import type { TChannelSetup, TSetupValueKey } from '@ccp/schemas';

import type { Connection } from '../message.ts';

// What the Channels page's setup guide shows of this server (issue 29): the values an
// administrator pastes at the provider and the files they upload there, every address built
// from the public URL (CCP_PUBLIC_URL, config.ts publicUrlFromEnv), never the request's Host.

/** What a channel's guide is made from. */
export type SetupContext = {
  /** This server's public URL, without a trailing slash. */
  publicUrl: string;
  /** The company's connection, when one is saved (Google Chat's own endpoint URL names it). */
  connection: Connection | null;
};

/** A guide before its refusal, which the route says in the user's language. */
export type ChannelSetupParts = Omit<TChannelSetup, 'refusal'>;

export const setupValue = (key: TSetupValueKey, value: string) => ({ key, value });

/** The address a provider posts to: /api/v1/webhooks/<path> on the public URL. */
export const webhookUrlOf = (publicUrl: string, webhookPath: string) =>
  `${publicUrl}/api/v1/webhooks/${webhookPath}`;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Providers call only https addresses (Slack: "Your Request URL must be https",
 * https://api.slack.com/apis/events-api#request-urls; Webex, Teams and Meta alike); plain http
 * only on this machine, for a local try. A public URL that no provider can call is named before
 * the administrator pastes it anywhere.
 */
export const publicUrlRefusal = (publicUrl: string): string | null => {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:') return null;
  return LOOPBACK.test(url.hostname) ? null : MESSAGES.publicUrlNotHttps;
};
