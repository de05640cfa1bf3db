import { LOCALES, MESSAGES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import { strToU8, zipSync } from 'fflate';
import type { Zippable } from 'fflate';

import { t } from '../../../i18n/texts.ts';
import { colorIcon, outlineIcon, TEAMS_ACCENT_COLOR } from './icons.ts';

// The Teams app package an administrator uploads in the Teams admin centre (Manage apps → Upload
// new app): a zip whose top level holds manifest.json and the two icons it names
// (https://learn.microsoft.com/en-us/microsoftteams/platform/concepts/build-and-test/apps-package),
// plus the Italian and German names and descriptions (localizationInfo,
// https://learn.microsoft.com/en-us/microsoftteams/platform/concepts/build-and-test/apps-localization).
// One bot, the company's (the connection's app id), in learners' personal chats only.

/**
 * The manifest schema version the package is written in: the newest one that Microsoft's own
 * manifest package on npm ships (@microsoft/app-manifest, the test's validator); see
 * docs/decisions.md.
 */
export const TEAMS_MANIFEST_VERSION = '1.30';
const SCHEMAS = `https://developer.microsoft.com/en-us/json-schemas/teams/v${TEAMS_MANIFEST_VERSION}`;
export const TEAMS_MANIFEST_SCHEMA = `${SCHEMAS}/MicrosoftTeams.schema.json`;
export const TEAMS_LOCALIZATION_SCHEMA = `${SCHEMAS}/MicrosoftTeams.Localization.schema.json`;

/**
 * The app's own version (semver). Raise it whenever the manifest changes: the admin centre takes
 * an upload with the same id as an update only when its version is higher.
 */
export const TEAMS_APP_VERSION = '1.0.0';
export const TEAMS_APP_PACKAGE_FILE = 'ccp-teams-app.zip';
/** Where administrators download it (the Channels page's Teams guide). */
export const TEAMS_APP_PACKAGE_PATH = '/api/v1/channel-connections/ms-teams/app-package';

/** The name learners see in Teams (name.short, at most 30 characters). */
const APP_NAME = 'CCP';
/** The languages besides English the package names the app in (English is the default). */
const OTHER_LANGUAGES = LOCALES.filter((language) => language !== 'en');

/** The manifest's length limits (MicrosoftTeams.schema.json: developer.name, name.full). */
const DEVELOPER_NAME_MAX = 32;
const FULL_NAME_MAX = 100;

const GUID = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

/** At most `max` characters (code points, as the schema counts), an ellipsis marking a cut. */
const clip = (text: string, max: number) => {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

/** What the package is made from. */
export type TeamsPackageInput = {
  /** The bot's Microsoft app id (Entra application (client) id), a GUID (teamsPackageBot). */
  appId: string;
  /** This server's public https URL, without a trailing slash. */
  publicUrl: string;
  /** The company's name: the developer learners see, and part of the app's full name. */
  companyName: string;
  /** When the files are dated in the zip. */
  now: Date;
};

/**
 * The bot a package names, or why none can be made as things are (in MESSAGES' words): Teams
 * calls the bot only at an https messaging endpoint, and the manifest names it by its app id, a
 * GUID.
 */
export const teamsPackageBot = (
  publicUrl: string,
  appId: string | undefined,
): { appId: string } | { refusal: string } => {
  if (new URL(publicUrl).protocol !== 'https:') return { refusal: MESSAGES.teamsPackageNeedsHttps };
  const id = appId?.trim().toLowerCase() ?? '';
  return GUID.test(id) ? { appId: id } : { refusal: MESSAGES.teamsPackageNeedsAppId };
};

/** The texts of one language: the app's full name and its two descriptions. */
const textsOf = (language: TLocale, companyName: string) => ({
  full: clip(t(language, 'server.teamsApp.fullName', { company: companyName }), FULL_NAME_MAX),
  short: t(language, 'server.teamsApp.shortDescription'),
  description: t(language, 'server.teamsApp.fullDescription', { company: companyName }),
});

/** manifest.json: the bot in personal scope, the company as developer, English by default. */
export const teamsManifest = ({ appId, publicUrl, companyName }: TeamsPackageInput) => {
  const english = textsOf('en', companyName);
  return {
    $schema: TEAMS_MANIFEST_SCHEMA,
    manifestVersion: TEAMS_MANIFEST_VERSION,
    version: TEAMS_APP_VERSION,
    // The bot's own id as the app's: every download for this bot is the same app, so a new
    // upload updates the one installed instead of adding a second.
    id: appId,
    developer: {
      name: clip(companyName, DEVELOPER_NAME_MAX),
      // This server is the only page the product has for them.
      websiteUrl: publicUrl,
      privacyUrl: publicUrl,
      termsOfUseUrl: publicUrl,
    },
    name: { short: APP_NAME, full: english.full },
    description: { short: english.short, full: english.description },
    icons: { color: 'color.png', outline: 'outline.png' },
    accentColor: TEAMS_ACCENT_COLOR,
    localizationInfo: {
      defaultLanguageTag: 'en',
      additionalLanguages: OTHER_LANGUAGES.map((language) => ({
        languageTag: language,
        file: `${language}.json`,
      })),
    },
    // Lessons and answers happen in the learner's one-to-one chat with the bot: no team or group
    // chat, where a question would be answered by whoever tapped first.
    bots: [
      {
        botId: appId,
        scopes: ['personal'],
        isNotificationOnly: false,
        supportsFiles: false,
        supportsCalling: false,
        supportsVideo: false,
      },
    ],
    defaultInstallScope: 'personal',
    validDomains: [new URL(publicUrl).host],
  };
};

/** <language>.json: the manifest's texts in another language (the localization schema). */
export const teamsLocalization = (language: TLocale, companyName: string) => {
  const texts = textsOf(language, companyName);
  return {
    $schema: TEAMS_LOCALIZATION_SCHEMA,
    'name.short': APP_NAME,
    'name.full': texts.full,
    'description.short': texts.short,
    'description.full': texts.description,
  };
};

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/** The zip: manifest.json, color.png, outline.png and it.json, de.json, all at its top level. */
export const teamsAppPackage = (input: TeamsPackageInput): Buffer => {
  const mtime = input.now;
  const files: Zippable = {
    'manifest.json': [json(teamsManifest(input)), { mtime }],
    'color.png': [colorIcon(), { mtime }],
    'outline.png': [outlineIcon(), { mtime }],
    ...Object.fromEntries(
      OTHER_LANGUAGES.map((language) => [
        `${language}.json`,
        [json(teamsLocalization(language, input.companyName)), { mtime }],
      ]),
    ),
  };
  return Buffer.from(zipSync(files, { level: 9 }));
};
