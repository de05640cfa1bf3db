import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { buildTestApp, call, createSignedInUser, createUser, signIn } from '../helper.ts';

// The Channels page's setup guides (issue 29): every address a provider is given is built from
// CCP_PUBLIC_URL, never from the Host the browser sent; Slack's app manifest carries them.

const PUBLIC_URL = 'https://ccp.example.test';

// One app per public URL, shared by the tests that ask it.
const apps = new Map<string, ReturnType<typeof appWithAdmin>>();
const appWithAdmin = async (publicUrl: string) => {
  const app = await buildTestApp({ publicUrl, secretsKey: randomBytes(32).toString('base64') });
  return { app, admin: await createSignedInUser(app) };
};

const guideOf = async (
  publicUrl: string,
  channel: string,
  { language = 'en' }: { language?: string } = {},
) => {
  if (!apps.has(publicUrl)) apps.set(publicUrl, appWithAdmin(publicUrl));
  const { app, admin } = await apps.get(publicUrl)!;
  const response = await call(app, {
    method: 'GET',
    url: `/api/v1/channel-connections/${channel}/setup`,
    headers: { ...admin.headers, host: 'attacker.example', 'accept-language': language },
  });
  return { app, admin, response };
};

describe('Setup guides', () => {
  it('Slack: the addresses, scopes and events to paste, from CCP_PUBLIC_URL alone', async () => {
    const { response } = await guideOf(PUBLIC_URL, 'slack');
    expect(response.statusCode).toBe(200);
    expect(response.json.data.refusal).toBeNull();
    expect(response.json.data.values).toEqual([
      { key: 'request_url', value: `${PUBLIC_URL}/api/v1/webhooks/slack` },
      { key: 'redirect_url', value: `${PUBLIC_URL}/api/v1/webhooks/slack/oauth` },
      {
        key: 'bot_scopes',
        value: 'chat:write, im:history, im:write, users:read, users:read.email',
      },
      { key: 'bot_events', value: 'message.im' },
    ]);
    expect(JSON.stringify(response.json)).not.toContain('attacker.example');
  });

  // The manifest's shape is checked at compile time against Slack's SDK typing (manifest.ts);
  // here, the rules of https://api.slack.com/reference/manifests a pasted manifest must meet:
  // display_information.name is required (at most 35 characters), a bot_user needs a
  // display_name (at most 80), and interactivity needs is_enabled with its request_url.
  it('Slack: the manifest as YAML and JSON says the same, with the bot, scopes, events and URLs', async () => {
    const { response } = await guideOf(PUBLIC_URL, 'slack');
    const downloads = response.json.data.downloads as {
      key: string;
      file_name: string;
      content: string;
    }[];
    expect(downloads.map((download) => download.file_name)).toEqual([
      'ccp-slack-manifest.yaml',
      'ccp-slack-manifest.json',
    ]);
    const fromYaml = parse(downloads[0]!.content) as Record<string, any>;
    const fromJson = JSON.parse(downloads[1]!.content) as Record<string, any>;
    expect(fromYaml).toEqual(fromJson);
    expect(fromJson.display_information.name.length).toBeLessThanOrEqual(35);
    expect(fromJson.display_information.description.length).toBeLessThanOrEqual(140);
    expect(fromJson.features.bot_user.display_name.length).toBeLessThanOrEqual(80);
    expect(fromJson.features.app_home).toMatchObject({
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    expect(fromJson.oauth_config).toEqual({
      redirect_urls: [`${PUBLIC_URL}/api/v1/webhooks/slack/oauth`],
      scopes: { bot: ['chat:write', 'im:history', 'im:write', 'users:read', 'users:read.email'] },
    });
    expect(fromJson.settings).toMatchObject({
      event_subscriptions: {
        request_url: `${PUBLIC_URL}/api/v1/webhooks/slack`,
        bot_events: ['message.im'],
      },
      interactivity: { is_enabled: true, request_url: `${PUBLIC_URL}/api/v1/webhooks/slack` },
      socket_mode_enabled: false,
    });
  });

  it('each provider’s addresses: Teams’ messaging endpoint and domain, WhatsApp’s callback, Webex’s webhook, Google Chat’s endpoint', async () => {
    const values = async (channel: string): Promise<unknown> =>
      (await guideOf(PUBLIC_URL, channel)).response.json.data.values as unknown;
    expect(await values('ms-teams')).toEqual([
      { key: 'messaging_endpoint', value: `${PUBLIC_URL}/api/v1/webhooks/teams` },
      { key: 'valid_domain', value: 'ccp.example.test' },
    ]);
    expect(await values('whatsapp')).toEqual([
      { key: 'callback_url', value: `${PUBLIC_URL}/api/v1/webhooks/whatsapp` },
      { key: 'webhook_fields', value: 'messages' },
    ]);
    expect(await values('webex')).toEqual([
      { key: 'webhook_url', value: `${PUBLIC_URL}/api/v1/webhooks/webex` },
    ]);
    expect(await values('google-chat')).toEqual([
      { key: 'shared_endpoint_url', value: `${PUBLIC_URL}/api/v1/webhooks/google-chat` },
    ]);
  });

  it('WhatsApp: the templates to create in every learner language, with their exact structure', async () => {
    const { response } = await guideOf(PUBLIC_URL, 'whatsapp');
    const templates = response.json.data.templates as {
      name: string;
      language: string;
      body: string;
      quick_replies: string[];
    }[];
    expect(templates.map((item) => `${item.name}/${item.language}`)).toEqual([
      'ccp_new_lesson/en',
      'ccp_invitation/en',
      'ccp_new_lesson/it',
      'ccp_invitation/it',
      'ccp_new_lesson/de',
      'ccp_invitation/de',
    ]);
    // One body variable each, and the quick replies the product's messages fill (templates.ts).
    for (const template of templates) expect(template.body.match(/\{\{1\}\}/g)).toHaveLength(1);
    expect(templates[2]).toMatchObject({
      category: 'UTILITY',
      body: 'La tua lezione di oggi è pronta: {{1}}',
      quick_replies: ['Inizia'],
    });
    expect(templates[5]!.quick_replies).toEqual(['Ja, mitmachen', 'Nein, danke']);
  });

  it('names a public URL no provider can call (http beyond this machine), in the user’s language', async () => {
    const { response } = await guideOf('http://ccp.example.test', 'slack', { language: 'it' });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.refusal).toBe(
      'I provider chiamano questo server solo a un indirizzo https, e il suo indirizzo pubblico (CCP_PUBLIC_URL) non lo è: chiedi a chi gestisce il server di impostarne l’indirizzo https prima di incollare questi valori.',
    );
    const local = await guideOf('http://127.0.0.1:8080', 'slack');
    expect(local.response.json.data.refusal).toBeNull();
  });

  it('is for administrators only', async () => {
    const { app, admin } = await guideOf(PUBLIC_URL, 'slack');
    const member = await createUser(app, admin.company, { isAdmin: false });
    const tokens = await signIn(app, member);
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections/slack/setup',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.statusCode).toBe(403);
  });
});
