import type { AppsManifestCreateArguments } from '@slack/web-api';

import { setupValue, webhookUrlOf } from '../setup.ts';
import type { ChannelSetupParts, SetupContext } from '../setup.ts';
import { SLACK_SCOPES, slackRedirectUrl } from './oauth.ts';

// The Slack app an administrator creates from a pasted manifest ("Create New App → From an app
// manifest", https://api.slack.com/reference/manifests): the bot user in the App Home's
// Messages tab, the five bot scopes, interactivity (answer buttons) and the `message.im` event
// (open answers), all at this server's public URL, and the redirect URL "Add to Slack" uses.
// Typed by Slack's own SDK (@slack/web-api's apps.manifest.create argument), so a misnamed or
// misplaced setting fails to compile.

type SlackManifest = AppsManifestCreateArguments['manifest'];

/** The events the app subscribes to: a learner's message in its DM (open answers). */
export const SLACK_BOT_EVENTS = ['message.im'] as const;

const APP_NAME = 'CCP';

/** The manifest (version 1, Slack's default) for this server. */
export const slackManifest = (publicUrl: string): SlackManifest => {
  const requestUrl = webhookUrlOf(publicUrl, 'slack');
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name: APP_NAME,
      description: 'Daily micro-lessons and their answers, from the Content Creators Platform.',
    },
    features: {
      // Learners read and answer lessons in the app's DM: the Messages tab, writable.
      app_home: {
        home_tab_enabled: false,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: false,
      },
      bot_user: { display_name: APP_NAME, always_online: true },
    },
    oauth_config: {
      redirect_urls: [slackRedirectUrl(publicUrl)],
      scopes: { bot: [...SLACK_SCOPES] },
    },
    settings: {
      // One endpoint takes both: JSON events and form-encoded interactions (webhook.ts).
      event_subscriptions: { request_url: requestUrl, bot_events: [...SLACK_BOT_EVENTS] },
      interactivity: { is_enabled: true, request_url: requestUrl },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  } satisfies SlackManifest;
};

type Yaml = string | number | boolean | readonly Yaml[] | { [key: string]: Yaml };

/**
 * YAML of plain data, strings double-quoted (JSON's escapes are YAML's), so no value is read
 * back as another type; enough for a manifest without a YAML library in the server.
 */
export const toYaml = (value: Yaml, indent = ''): string => {
  if (Array.isArray(value)) {
    return value
      .map((item: Yaml) => `\n${indent}- ${toYaml(item, `${indent}  `).trimStart()}`)
      .join('');
  }
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([key, item]) => {
        const nested = typeof item === 'object';
        return `\n${indent}${key}:${nested ? toYaml(item, `${indent}  `) : ` ${toYaml(item)}`}`;
      })
      .join('');
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
};

/** The guide: the manifest to paste (YAML and JSON), and the same addresses one by one. */
export const slackSetup = ({ publicUrl }: SetupContext): ChannelSetupParts => {
  const manifest = slackManifest(publicUrl) as Yaml;
  return {
    values: [
      setupValue('request_url', webhookUrlOf(publicUrl, 'slack')),
      setupValue('redirect_url', slackRedirectUrl(publicUrl)),
      setupValue('bot_scopes', SLACK_SCOPES.join(', ')),
      setupValue('bot_events', SLACK_BOT_EVENTS.join(', ')),
    ],
    downloads: [
      {
        key: 'slack_manifest_yaml',
        file_name: 'ccp-slack-manifest.yaml',
        media_type: 'application/yaml',
        content: `${toYaml(manifest).trimStart()}\n`,
      },
      {
        key: 'slack_manifest_json',
        file_name: 'ccp-slack-manifest.json',
        media_type: 'application/json',
        content: `${JSON.stringify(manifest, null, 2)}\n`,
      },
    ],
  };
};
