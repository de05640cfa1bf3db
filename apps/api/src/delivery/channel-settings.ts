// Where each provider's API lives. Every client takes its base URLs from here, which is what lets
// tests and the bench point it at a local fake (CCP_SLACK_API_URL...). Defaults: the real APIs.

export type ChannelSettings = {
  slack: {
    /** Web API base, ending in /api/. */
    apiUrl: string;
    /** Where "Add to Slack" sends the administrator (OAuth v2 authorize). */
    authorizeUrl: string;
  };
  webex: {
    /** REST base, without /v1. */
    apiUrl: string;
    /** This server's public URL, where Webex posts card submits (config.ts publicUrlFromEnv); null (tests): Webex cannot be connected. */
    publicUrl: string | null;
  };
  teams: {
    /**
     * The Microsoft identity token endpoint (CCP_TEAMS_TOKEN_URL), `{tenant}` standing for the
     * connection's tenant id (TEAMS_LEGACY_TENANT for a multi-tenant bot).
     */
    tokenUrl: string;
    /** The Bot Connector's OpenID metadata, naming the keys inbound tokens are signed with (CCP_TEAMS_OPENID_URL). */
    openIdMetadataUrl: string;
  };
  googleChat: {
    /** Chat REST base, without /v1 (CCP_GOOGLE_CHAT_API_URL). */
    apiUrl: string;
    /** OAuth token endpoint for the service account's assertion (CCP_GOOGLE_TOKEN_URL). */
    tokenUrl: string;
    /** The keys Chat signs its project-number JWTs with (CCP_GOOGLE_CHAT_JWKS_URL). */
    jwksUrl: string;
    /** Google's OIDC keys, which sign the ID tokens of the endpoint URL audience (CCP_GOOGLE_OIDC_JWKS_URL). */
    oidcJwksUrl: string;
    /** This server's public URL (config.ts publicUrlFromEnv): each connection's endpoint URL; null (tests): none. */
    publicUrl: string | null;
  };
  whatsapp: {
    /** Graph API base with its version, e.g. https://graph.facebook.com/v21.0 (CCP_WHATSAPP_API_URL). */
    apiUrl: string;
  };
};

export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = {
  slack: {
    apiUrl: 'https://slack.com/api/',
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  },
  webex: { apiUrl: 'https://webexapis.com', publicUrl: null },
  whatsapp: { apiUrl: 'https://graph.facebook.com/v21.0' },
  googleChat: {
    apiUrl: 'https://chat.googleapis.com',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    jwksUrl: 'https://www.googleapis.com/service_accounts/v1/jwk/chat@system.gserviceaccount.com',
    oidcJwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    publicUrl: null,
  },
  teams: {
    tokenUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
    openIdMetadataUrl: 'https://login.botframework.com/v1/.well-known/openidconfiguration',
  },
};

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The settings of the environment (CCP_SLACK_API_URL, CCP_SLACK_AUTHORIZE_URL...); the public URL
 * is the one config.ts's publicUrlFromEnv answered (CCP_PUBLIC_URL, else this server's own address).
 */
export const channelSettingsFromEnv = (
  env: NodeJS.ProcessEnv,
  { publicUrl }: { publicUrl: string | null },
): ChannelSettings => ({
  slack: {
    apiUrl: withSlash(env.CCP_SLACK_API_URL || DEFAULT_CHANNEL_SETTINGS.slack.apiUrl),
    authorizeUrl: env.CCP_SLACK_AUTHORIZE_URL || DEFAULT_CHANNEL_SETTINGS.slack.authorizeUrl,
  },
  webex: {
    apiUrl: withoutSlash(env.CCP_WEBEX_API_URL || DEFAULT_CHANNEL_SETTINGS.webex.apiUrl),
    publicUrl,
  },
  googleChat: {
    apiUrl: withoutSlash(env.CCP_GOOGLE_CHAT_API_URL || DEFAULT_CHANNEL_SETTINGS.googleChat.apiUrl),
    tokenUrl: env.CCP_GOOGLE_TOKEN_URL || DEFAULT_CHANNEL_SETTINGS.googleChat.tokenUrl,
    jwksUrl: env.CCP_GOOGLE_CHAT_JWKS_URL || DEFAULT_CHANNEL_SETTINGS.googleChat.jwksUrl,
    oidcJwksUrl: env.CCP_GOOGLE_OIDC_JWKS_URL || DEFAULT_CHANNEL_SETTINGS.googleChat.oidcJwksUrl,
    publicUrl,
  },
  teams: {
    tokenUrl: env.CCP_TEAMS_TOKEN_URL || DEFAULT_CHANNEL_SETTINGS.teams.tokenUrl,
    openIdMetadataUrl: env.CCP_TEAMS_OPENID_URL || DEFAULT_CHANNEL_SETTINGS.teams.openIdMetadataUrl,
  },
  whatsapp: {
    apiUrl: withoutSlash(env.CCP_WHATSAPP_API_URL || DEFAULT_CHANNEL_SETTINGS.whatsapp.apiUrl),
  },
});

/** Partial settings (tests name only the fakes they run) over the defaults. */
export const resolveChannelSettings = (
  partial: { [K in keyof ChannelSettings]?: Partial<ChannelSettings[K]> } = {},
): ChannelSettings => ({
  slack: {
    ...DEFAULT_CHANNEL_SETTINGS.slack,
    ...partial.slack,
    apiUrl: withSlash(partial.slack?.apiUrl ?? DEFAULT_CHANNEL_SETTINGS.slack.apiUrl),
  },
  webex: {
    ...DEFAULT_CHANNEL_SETTINGS.webex,
    ...partial.webex,
    apiUrl: withoutSlash(partial.webex?.apiUrl ?? DEFAULT_CHANNEL_SETTINGS.webex.apiUrl),
  },
  teams: { ...DEFAULT_CHANNEL_SETTINGS.teams, ...partial.teams },
  googleChat: {
    ...DEFAULT_CHANNEL_SETTINGS.googleChat,
    ...partial.googleChat,
    apiUrl: withoutSlash(partial.googleChat?.apiUrl ?? DEFAULT_CHANNEL_SETTINGS.googleChat.apiUrl),
  },
  whatsapp: {
    apiUrl: withoutSlash(partial.whatsapp?.apiUrl ?? DEFAULT_CHANNEL_SETTINGS.whatsapp.apiUrl),
  },
});
