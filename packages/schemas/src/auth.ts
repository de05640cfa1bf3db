import { z } from 'zod';

import { dataEnvelope } from './common.ts';
import { LOCALES, PLATFORM } from './constants.ts';
import { MESSAGES } from './messages.ts';

// Authentication, the signed-in user and two-factor authentication (spec §3 User, §4, §7).

/** Login, refresh and 2FA calls all name the one platform this product is (spec §6). */
export const ZPlatformSchema = z.literal(PLATFORM, {
  error: (issue) => (issue.input === undefined ? MESSAGES.required : MESSAGES.invalidPlatform),
});

const requiredString = () =>
  z.string({ error: MESSAGES.required }).trim().min(1, { message: MESSAGES.required });

const SIX_DIGITS = /^\d{6}$/;
// Two 6-digit codes written as one field: "123456654321", "123456 654321" or "123456, 654321".
const TWO_CODES = /^(\d{6})(?:\s*,\s*|\s+)?(\d{6})$/;

/** One 6-digit TOTP code; spaces a user typed inside it are ignored. */
export const ZOtpCodeSchema = z
  .string({ error: MESSAGES.required })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(SIX_DIGITS, { message: MESSAGES.invalidCode }))
  .describe('The current 6-digit code of the authenticator app.');

export const ZLoginRequestSchema = z.object({
  // The username is the user's email, matched case-insensitively.
  username: requiredString()
    .max(255, { message: MESSAGES.emailInvalid })
    .toLowerCase()
    .pipe(z.email({ message: MESSAGES.emailInvalid })),
  password: z.string({ error: MESSAGES.required }).min(1, { message: MESSAGES.required }),
  platform: ZPlatformSchema,
});
export type TLoginRequest = z.input<typeof ZLoginRequestSchema>;

// Recovery codes: 10 characters of a-z and 2-9 (no 0/o, 1/l) in two groups, `abcde-23456`.
const RECOVERY_CODE = /^[a-z2-9]{5}-?[a-z2-9]{5}$/;

/** A recovery code as typed: case, spaces and the dash do not matter. */
export const ZRecoveryCodeSchema = z
  .string({ error: MESSAGES.required })
  .transform((value) => value.replace(/\s+/g, '').toLowerCase())
  .pipe(z.string().regex(RECOVERY_CODE, { message: MESSAGES.recoveryCodeFormat }))
  .transform((value) => value.replace('-', ''));

/** The second sign-in step: a TOTP `code`, or instead one of the user's `recovery_code`s. */
export const ZTwoFactorTokenRequestSchema = z
  .object({
    refresh_token: requiredString(),
    platform: ZPlatformSchema,
    code: ZOtpCodeSchema.optional(),
    recovery_code: ZRecoveryCodeSchema.optional(),
  })
  // One of the two, said even when another field is wrong too (`when`: zod skips a refinement
  // of an object with other issues unless told).
  .refine((value) => (value.code === undefined) !== (value.recovery_code === undefined), {
    path: ['code'],
    message: MESSAGES.codeOrRecoveryRequired,
    when: (payload) => {
      const input = payload.value as { code?: unknown; recovery_code?: unknown } | undefined;
      return (
        typeof input === 'object' &&
        input !== null &&
        !payload.issues.some(
          (issue) => issue.path?.[0] === 'code' || issue.path?.[0] === 'recovery_code',
        )
      );
    },
  });
export type TTwoFactorTokenRequest = z.input<typeof ZTwoFactorTokenRequestSchema>;

/**
 * The refresh token as a browser keeps it (issue 30): an `HttpOnly; Secure; SameSite=Strict`
 * cookie sent only to the refresh call, so no script of the page can read it. A client asks for it
 * with REFRESH_COOKIE_HEADER on the calls that answer full tokens; the body then carries an empty
 * `refresh_token`. The refresh call that uses the cookie must carry CSRF_HEADER.
 */
export const REFRESH_COOKIE_NAME = 'ccp_refresh';
export const REFRESH_COOKIE_PATH = '/api/v1/users/oauth/refresh';
export const REFRESH_COOKIE_HEADER = 'x-ccp-refresh-cookie';
export const CSRF_HEADER = 'x-ccp-csrf';

/** `refresh_token` may be left out by a browser whose refresh token is in the cookie. */
export const ZRefreshRequestSchema = z.object({
  refresh_token: requiredString().optional(),
  platform: ZPlatformSchema,
});
export type TRefreshRequest = z.input<typeof ZRefreshRequestSchema>;

/**
 * Two consecutive codes from the authenticator: `["123456", "654321"]`, `"123456654321"`, or two
 * groups separated by a space or comma. Always parses to a pair of 6-digit strings.
 */
export const ZTwoFactorCodesSchema = z
  .union(
    [
      z.tuple([z.string().trim(), z.string().trim()]),
      z.string().transform((value) => value.trim()),
    ],
    {
      error: (issue) =>
        issue.input === undefined ? MESSAGES.required : MESSAGES.twoFactorCodesFormat,
    },
  )
  .transform((value, ctx): [string, string] => {
    if (Array.isArray(value)) {
      const [first, second] = value;
      if (SIX_DIGITS.test(first) && SIX_DIGITS.test(second)) return [first, second];
    } else {
      const match = TWO_CODES.exec(value);
      if (match?.[1] && match[2]) return [match[1], match[2]];
    }
    ctx.addIssue({ code: 'custom', message: MESSAGES.twoFactorCodesFormat });
    return z.NEVER;
  })
  .describe('Two consecutive codes: ["123456", "654321"], "123456654321" or "123456 654321".');

export const ZTwoFactorVerifyRequestSchema = z.object({
  code: ZTwoFactorCodesSchema,
});
export type TTwoFactorVerifyRequest = z.input<typeof ZTwoFactorVerifyRequestSchema>;

/** The signed-in user as `/users/me` and the token calls return it; never any secret. */
export const ZUserSchema = z.object({
  uuid: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
  locale: z.enum(LOCALES),
  is_admin: z.boolean(),
  is_2fa_enabled: z.boolean(),
  company: z.object({ uuid: z.string(), name: z.string() }),
});
export type TUser = z.infer<typeof ZUserSchema>;

export const ZTokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
});
export type TTokenPair = z.infer<typeof ZTokenPairSchema>;

/** `POST /users/oauth/refresh`: a new full pair. */
export const ZTokenResponseSchema = dataEnvelope(ZTokenPairSchema);
export type TTokenResponse = z.infer<typeof ZTokenResponseSchema>;

/** `POST /users/oauth/token`: first-step tokens, which open only the 2FA calls, me and logout. */
export const ZLoginResponseSchema = dataEnvelope(
  ZTokenPairSchema.extend({ is_2fa_enabled: z.boolean() }),
);
export type TLoginResponse = z.infer<typeof ZLoginResponseSchema>;

/** `POST /users/oauth/2fa-token`: full tokens plus the user. */
export const ZTwoFactorTokenResponseSchema = dataEnvelope(
  ZTokenPairSchema.extend({
    is_2fa_enabled: z.literal(true),
    user: ZUserSchema,
    /** Set when a recovery code was used: how many unused ones the user has left. */
    recovery_codes_remaining: z.number().int().optional(),
  }),
);
export type TTwoFactorTokenResponse = z.infer<typeof ZTwoFactorTokenResponseSchema>;

export const ZUserResponseSchema = dataEnvelope(ZUserSchema);
export type TUserResponse = z.infer<typeof ZUserResponseSchema>;

export const ZLogoutResponseSchema = dataEnvelope(z.object({ status: z.literal('logged_out') }));
export type TLogoutResponse = z.infer<typeof ZLogoutResponseSchema>;

/** `GET /users/2fa-qrcode`: the QR code as an SVG data URL and the secret for manual entry. */
export const ZQrCodeResponseSchema = dataEnvelope(
  z.object({
    qr_code: z.string().startsWith('data:image/svg+xml;base64,'),
    secret: z.string(),
    otpauth_url: z.string(),
  }),
);
export type TQrCodeResponse = z.infer<typeof ZQrCodeResponseSchema>;

/** `POST /users/2fa-verify/`: confirmed, with full tokens so the client continues signed in. */
export const ZTwoFactorVerifyResponseSchema = dataEnvelope(
  ZTokenPairSchema.extend({
    status: z.literal('confirmed'),
    user: ZUserSchema,
    /** The new recovery codes, shown once (issue 17). */
    recovery_codes: z.array(z.string()),
  }),
);
export type TTwoFactorVerifyResponse = z.infer<typeof ZTwoFactorVerifyResponseSchema>;
