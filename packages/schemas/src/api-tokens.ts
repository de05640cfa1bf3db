import { z } from 'zod';

import { ZOtpCodeSchema } from './auth.ts';
import { ZTimestampSchema, ZUuidSchema, dataEnvelope } from './common.ts';
import { MESSAGES } from './messages.ts';

// Personal API tokens (issue 12): a CI job's bearer instead of a password and a TOTP secret.
// Each token acts as its user within the scopes it was given; docs/decisions.md lists which
// routes each scope opens (apps/api/src/lib/token-scopes.ts decides).

/**
 * What a token may do. A `:write` scope includes reading the same things; `exports:read` also
 * requests exports (producing a file is how an export is read).
 */
export const API_TOKEN_SCOPES = [
  'courses:read',
  'courses:write',
  'learners:read',
  'learners:write',
  'analytics:read',
  'exports:read',
] as const;
export type TApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Tokens live at most a year. */
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_DEFAULT_DAYS = 90;
/** Every token starts with this, so secret scanners and the auth hook can tell it from a session. */
export const API_TOKEN_PREFIX = 'ccp_pat_';

export const ZApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES, {
  error: MESSAGES.apiTokenScopeInvalid,
});

export const ZCreateApiTokenRequestSchema = z.object({
  name: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required })
    .max(100, { error: MESSAGES.apiTokenNameMax }),
  scopes: z
    .array(ZApiTokenScopeSchema, { error: MESSAGES.apiTokenScopesRequired })
    .min(1, { error: MESSAGES.apiTokenScopesRequired })
    .transform((scopes) => API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope))),
  /** Days from now until it stops working, 1 to 365. */
  expires_in_days: z.coerce
    .number({ error: MESSAGES.apiTokenExpiryInvalid })
    .int({ error: MESSAGES.apiTokenExpiryInvalid })
    .min(1, { error: MESSAGES.apiTokenExpiryInvalid })
    .max(API_TOKEN_MAX_DAYS, { error: MESSAGES.apiTokenExpiryInvalid })
    .default(API_TOKEN_DEFAULT_DAYS),
  /** A fresh code of the user's authenticator: a password alone never makes a token. */
  code: ZOtpCodeSchema,
});
export type TCreateApiTokenRequest = z.input<typeof ZCreateApiTokenRequestSchema>;

export const ZApiTokenSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** The first characters, to recognise a token in a CI setting (`ccp_pat_3fA9…`). */
  hint: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: ZTimestampSchema,
});
export type TApiToken = z.infer<typeof ZApiTokenSchema>;

/** The creation answer: the only time the token itself is shown. */
export const ZCreatedApiTokenSchema = ZApiTokenSchema.extend({ token: z.string() });
export type TCreatedApiToken = z.infer<typeof ZCreatedApiTokenSchema>;

export const ZApiTokenResponseSchema = dataEnvelope(ZCreatedApiTokenSchema);
export const ZListApiTokensResponseSchema = dataEnvelope(z.array(ZApiTokenSchema));
export const ZRevokedApiTokenResponseSchema = dataEnvelope(z.object({ revoked: ZUuidSchema }));
/** How many live tokens "revoke all" ended. */
export const ZRevokedAllApiTokensResponseSchema = dataEnvelope(
  z.object({ revoked: z.number().int().nonnegative() }),
);
