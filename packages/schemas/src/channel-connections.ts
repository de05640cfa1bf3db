import { z } from 'zod';

import { dataEnvelope } from './common.ts';
import { CHANNEL_KEYS } from './constants.ts';
import type { TChannelKey } from './constants.ts';
import { MESSAGES } from './messages.ts';

// A company's connection to each chat provider (issue 16): what an administrator enters on the
// Channels page, and what everyone sees of it. Secrets are write-only: the API answers which
// are stored, never their values.

/**
 * `demo`: a sample connection of the demo seed, with no secrets; it sends nothing.
 * `awaiting_verification`: the credentials work, but the provider has not yet sent the signed
 * event that proves its requests reach this connection (Google Chat's audience); it sends nothing
 * until one arrives, and then is `connected`.
 */
export const CONNECTION_STATUSES = [
  'not_connected',
  'disconnected',
  'connected',
  'awaiting_verification',
  'error',
  'demo',
] as const;
export type TConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export type TConnectionField = {
  key: string;
  /** Stored encrypted and never shown again. */
  secret: boolean;
  /** Needed to connect (a secret already stored counts). */
  required: boolean;
  /**
   * Not needed when all these fields are given instead (Slack: the bot token, or the app's client
   * id and secret for "Add to Slack", which gets the token by OAuth).
   */
  orElse?: readonly string[];
  /** A choice among these values (the first is the default) instead of free text. */
  options?: readonly string[];
  /** Needed only while another field has this value (an empty choice counts as its default). */
  requiredWhen?: { key: string; value: string };
};

const id = (key: string, required = true): TConnectionField => ({ key, secret: false, required });
const secret = (key: string, required = true): TConnectionField => ({
  key,
  secret: true,
  required,
});

/** Google Chat's authentication audiences (verify-requests-from-chat); the first is the default. */
export const GOOGLE_CHAT_AUDIENCES = ['project_number', 'endpoint_url'] as const;
export type TGoogleChatAudience = (typeof GOOGLE_CHAT_AUDIENCES)[number];

/** The fields of each provider's connection form, in the provider's own words. */
export const CONNECTION_FIELDS: Record<TChannelKey, readonly TConnectionField[]> = {
  slack: [
    id('client_id', false),
    secret('client_secret', false),
    secret('signing_secret'),
    { ...secret('bot_token'), orElse: ['client_id', 'client_secret'] },
  ],
  'ms-teams': [id('tenant_id'), id('app_id'), secret('app_password')],
  whatsapp: [
    id('business_account_id'),
    id('phone_number_id'),
    id('template_name'),
    id('invitation_template_name', false),
    secret('access_token'),
    secret('app_secret'),
    secret('verify_token'),
  ],
  webex: [secret('bot_token'), secret('webhook_secret')],
  // How Chat signs the events it posts (the app's "Authentication audience"): a JWT for the
  // project number, or an ID token for the HTTP endpoint URL (the default of new Chat apps).
  'google-chat': [
    { key: 'audience', secret: false, required: false, options: GOOGLE_CHAT_AUDIENCES },
    {
      key: 'project_number',
      secret: false,
      required: false,
      requiredWhen: { key: 'audience', value: 'project_number' },
    },
    secret('service_account_json'),
  ],
};

const FIELD_MAX = 20_000;

/**
 * The body that connects a provider: its fields as strings. A secret left empty keeps the stored
 * one, so `storedSecrets` (what the connection has) decides whether a required secret is there.
 */
export const connectionInputSchema = (
  channel: TChannelKey,
  storedSecrets: readonly string[] = [],
) =>
  z.record(z.string(), z.string().max(FIELD_MAX)).superRefine((values, ctx) => {
    const known = new Set(CONNECTION_FIELDS[channel].map((field) => field.key));
    for (const key of Object.keys(values)) {
      if (!known.has(key))
        ctx.addIssue({ code: 'custom', path: [key], message: MESSAGES.connectionUnknownField });
    }
    const fields = CONNECTION_FIELDS[channel];
    const valueOf = (key: string) => {
      const value = (values[key] ?? '').trim();
      return value === '' ? (fields.find((field) => field.key === key)?.options?.[0] ?? '') : value;
    };
    const given = (key: string) =>
      (values[key] ?? '').trim() !== '' ||
      (storedSecrets.includes(key) && fields.some((field) => field.key === key && field.secret));
    for (const field of fields) {
      const value = (values[field.key] ?? '').trim();
      if (field.options && value !== '' && !field.options.includes(value)) {
        ctx.addIssue({
          code: 'custom',
          path: [field.key],
          message: MESSAGES.connectionOptionInvalid,
        });
      }
      const required =
        field.required ||
        (field.requiredWhen !== undefined &&
          valueOf(field.requiredWhen.key) === field.requiredWhen.value);
      const instead = field.orElse !== undefined && field.orElse.every(given);
      if (required && !given(field.key) && !instead) {
        ctx.addIssue({
          code: 'custom',
          path: [field.key],
          message: MESSAGES.connectionFieldRequired,
        });
      }
    }
  });

export const ZConnectionInputSchema = z.object({
  fields: z.record(z.string(), z.string().max(FIELD_MAX)),
});
export type TConnectionInput = z.infer<typeof ZConnectionInputSchema>;

/**
 * What a connection test proved of the path a lesson takes (issue 29), one item per step: the
 * credentials, who the bot is, the templates, the webhook the provider calls, a signed event, and
 * the learner's end. Said on the Channels page by `channel-connections.proofs.<key>.<outcome>`.
 */
export const CONNECTION_PROOF_KEYS = [
  'credentials',
  'bot_identity',
  'lesson_template',
  'invitation_template',
  'template_gaps',
  'webhook_registered',
  'webhook_round_trip',
  'signed_event',
  'webhook_reachability',
  'learner_reach',
] as const;
export type TConnectionProofKey = (typeof CONNECTION_PROOF_KEYS)[number];

/**
 * `proved`: the provider answered so; `pending`: it will be once the provider acts (a template
 * under review, a signed event not yet sent); `not_provable`: no provider call can show it
 * without a learner; `failed`: the provider's answer disproved it.
 */
export const PROOF_OUTCOMES = ['proved', 'pending', 'not_provable', 'failed'] as const;
export type TProofOutcome = (typeof PROOF_OUTCOMES)[number];

export const ZConnectionProofSchema = z.object({
  key: z.enum(CONNECTION_PROOF_KEYS),
  outcome: z.enum(PROOF_OUTCOMES),
  /** What the provider named (a bot, a phone number, languages), shown as it is. */
  detail: z.string().optional(),
});
export type TConnectionProof = z.infer<typeof ZConnectionProofSchema>;

export const ZChannelConnectionSchema = z.object({
  channel: z.enum(CHANNEL_KEYS),
  status: z.enum(CONNECTION_STATUSES),
  /** The provider's ids (administrators only). */
  provider_ids: z.record(z.string(), z.string()),
  /** Which secrets are stored (administrators only). */
  secrets_set: z.array(z.string()),
  last_error: z.string().nullable(),
  /** What the last test proved and could not prove (administrators only; empty before a test). */
  proofs: z.array(ZConnectionProofSchema),
  /** True for administrators: they may connect, test and disconnect. */
  editable: z.boolean(),
  /** False while this server has no connector for the provider (lessons are only recorded). */
  available: z.boolean(),
  last_tested_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type TChannelConnection = z.infer<typeof ZChannelConnectionSchema>;

export const ZChannelConnectionsResponseSchema = dataEnvelope(z.array(ZChannelConnectionSchema));
export const ZChannelConnectionResponseSchema = dataEnvelope(ZChannelConnectionSchema);
export const ZSlackInstallResponseSchema = dataEnvelope(z.object({ url: z.string() }));

/**
 * The values a provider's setup guide names (locales `channel-connections.setup.values.<key>`):
 * what to paste at the provider, each built from this server's public URL (CCP_PUBLIC_URL).
 */
export const SETUP_VALUE_KEYS = [
  'request_url',
  'redirect_url',
  'bot_scopes',
  'bot_events',
  'messaging_endpoint',
  'valid_domain',
  'callback_url',
  'webhook_fields',
  'webhook_url',
  'endpoint_url',
  'shared_endpoint_url',
] as const;
export type TSetupValueKey = (typeof SETUP_VALUE_KEYS)[number];

/** The files a guide offers (locales `channel-connections.setup.downloads.<key>`). */
export const SETUP_DOWNLOAD_KEYS = [
  'slack_manifest_yaml',
  'slack_manifest_json',
  'teams_app_package',
] as const;

export const ZChannelSetupSchema = z.object({
  values: z.array(z.object({ key: z.enum(SETUP_VALUE_KEYS), value: z.string() })),
  downloads: z.array(
    z.object({
      key: z.enum(SETUP_DOWNLOAD_KEYS),
      file_name: z.string(),
      media_type: z.string(),
      /** The file itself, when it is text of a few KB: the page saves it without another request. */
      content: z.string().optional(),
      /**
       * Where the API serves a file that is not text (the Teams app package, a zip): the page
       * GETs it with the administrator's session when asked for it.
       */
      path: z.string().optional(),
    }),
  ),
  /**
   * The message templates to create at the provider (WhatsApp), one per name and learner
   * language, with the exact structure the product fills: `{{1}}` is its one body variable.
   */
  templates: z
    .array(
      z.object({
        name: z.string(),
        language: z.string(),
        category: z.string(),
        body: z.string(),
        /** The sample value of `{{1}}` Meta's review reads. */
        example: z.string(),
        quick_replies: z.array(z.string()),
      }),
    )
    .optional(),
  /** Why the provider could not reach this server as it is set up, in the user's language; null: it can. */
  refusal: z.string().nullable(),
});
export type TChannelSetup = z.infer<typeof ZChannelSetupSchema>;

/**
 * "Create missing templates" (WhatsApp): per template name and language, what Meta answered —
 * `created` (its status, PENDING while Meta reviews it), `exists` (its status), or `failed` with
 * Meta's own message.
 */
export const ZTemplateCreationSchema = z.object({
  name: z.string(),
  language: z.string(),
  outcome: z.enum(['created', 'exists', 'failed']),
  status: z.string().nullable(),
  error: z.string().nullable(),
});
export type TTemplateCreation = z.infer<typeof ZTemplateCreationSchema>;
export const ZTemplateCreationResponseSchema = dataEnvelope(z.array(ZTemplateCreationSchema));
export const ZChannelSetupResponseSchema = dataEnvelope(ZChannelSetupSchema);
