import { startFakeGoogleChat } from './google-chat.ts';
import { startFakeSlack } from './slack.ts';
import { startFakeTeams } from './teams.ts';
import { startFakeWebex } from './webex.ts';
import { startFakeWhatsApp } from './whatsapp.ts';

// The five providers' fakes at once, for a whole server (the e2e server, a screenshot run): the
// environment that points the server's clients at them, and what an administrator types on the
// Channels page to connect each one (the fakes' own credentials).

export type FakeProviders = Awaited<ReturnType<typeof startFakeProviders>>;

export const startFakeProviders = async () => {
  const [slack, webex, whatsapp, teams, googleChat] = await Promise.all([
    startFakeSlack(),
    startFakeWebex(),
    startFakeWhatsApp(),
    startFakeTeams(),
    startFakeGoogleChat(),
  ]);
  return {
    slack,
    webex,
    whatsapp,
    teams,
    googleChat,
    /** CCP_SLACK_API_URL and the others, each at its fake. */
    env: {
      CCP_SLACK_API_URL: slack.apiUrl,
      CCP_WEBEX_API_URL: webex.apiUrl,
      CCP_WHATSAPP_API_URL: whatsapp.apiUrl,
      CCP_TEAMS_TOKEN_URL: teams.tokenUrl,
      CCP_TEAMS_OPENID_URL: teams.openIdMetadataUrl,
      CCP_GOOGLE_CHAT_API_URL: googleChat.apiUrl,
      CCP_GOOGLE_TOKEN_URL: googleChat.tokenUrl,
      CCP_GOOGLE_CHAT_JWKS_URL: googleChat.jwksUrl,
      CCP_GOOGLE_OIDC_JWKS_URL: googleChat.oidcJwksUrl,
    },
    /** The connection form's fields per channel (keys of CONNECTION_FIELDS). */
    fields: {
      slack: { bot_token: slack.token, signing_secret: slack.signingSecret },
      webex: { bot_token: webex.token, webhook_secret: 'fake-webex-webhook-secret' },
      whatsapp: {
        business_account_id: whatsapp.businessAccountId,
        phone_number_id: whatsapp.phoneNumberId,
        template_name: whatsapp.templateName,
        invitation_template_name: whatsapp.invitationTemplateName,
        access_token: whatsapp.token,
        app_secret: whatsapp.appSecret,
        verify_token: 'fake-whatsapp-verify-token',
      },
      'ms-teams': {
        tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        app_id: teams.appId,
        app_password: teams.appPassword,
      },
      'google-chat': {
        project_number: googleChat.projectNumber,
        service_account_json: googleChat.serviceAccountJson,
      },
    } as Record<string, Record<string, string>>,
    close: async () => {
      await Promise.all([slack, webex, whatsapp, teams, googleChat].map((fake) => fake.close()));
    },
  };
};
