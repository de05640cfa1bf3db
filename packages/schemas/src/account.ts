import { z } from 'zod';

import { isCommonPassword } from './common-passwords.ts';
import { ZUuidSchema, dataEnvelope, paginatedEnvelope } from './common.ts';
import { LOCALES } from './constants.ts';
import { ZOtpCodeSchema } from './auth.ts';
import { MESSAGES } from './messages.ts';

// Accounts (issue 17): password reset by e-mail, the password policy, 2FA recovery codes,
// profile, sessions and the audit log.

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;
/** Minutes a password-reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 60;
/** Days an invitation link works. */
export const INVITATION_TTL_DAYS = 7;
/** How many recovery codes a user gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** At or below this many unused recovery codes the OTP step warns. */
export const RECOVERY_CODES_LOW = 3;

/**
 * What is wrong with a new password, or null: length, not the e-mail (or its local part), not on
 * the shipped list of common passwords. The API and the forms ask the same function.
 */
export const passwordProblem = (password: string, email?: string | null): string | null => {
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return MESSAGES.passwordTooLong;
  const lower = password.trim().toLowerCase();
  if (email) {
    const address = email.trim().toLowerCase();
    if (lower === address || lower === address.split('@')[0]) return MESSAGES.passwordIsEmail;
  }
  if (isCommonPassword(lower)) return MESSAGES.passwordTooCommon;
  return null;
};

/** A new password without the e-mail check (the server adds it, knowing the account). */
export const ZNewPasswordSchema = z
  .string({ error: MESSAGES.required })
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const ZAccountEmailSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { message: MESSAGES.required })
  .max(255, { message: MESSAGES.emailInvalid })
  .toLowerCase()
  .pipe(z.email({ message: MESSAGES.emailInvalid }));

/** A link token from an e-mail (password reset, invitation): 43 base64url characters. */
export const ZLinkTokenSchema = z
  .string({ error: MESSAGES.linkInvalid })
  .trim()
  .min(20, { message: MESSAGES.linkInvalid })
  .max(200, { message: MESSAGES.linkInvalid });

export const ZForgotPasswordRequestSchema = z.object({ email: ZAccountEmailSchema });
export type TForgotPasswordRequest = z.input<typeof ZForgotPasswordRequestSchema>;
/** Always the same answer, whether the account exists or not. */
export const ZForgotPasswordResponseSchema = dataEnvelope(z.object({ status: z.literal('sent') }));

export const ZResetPasswordRequestSchema = z.object({
  token: ZLinkTokenSchema,
  password: ZNewPasswordSchema,
});
export type TResetPasswordRequest = z.input<typeof ZResetPasswordRequestSchema>;
export const ZResetPasswordResponseSchema = dataEnvelope(
  z.object({ status: z.literal('password_reset') }),
);

export const ZChangePasswordRequestSchema = z.object({
  current_password: z.string({ error: MESSAGES.required }).min(1, { message: MESSAGES.required }),
  password: ZNewPasswordSchema,
});
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequestSchema>;
export const ZChangePasswordResponseSchema = dataEnvelope(
  z.object({ status: z.literal('password_changed') }),
);

const personName = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { message: MESSAGES.nameRequired })
    .max(100, { message: MESSAGES.nameMax });

export const ZUpdateProfileRequestSchema = z.object({
  first_name: personName(),
  last_name: personName(),
  locale: z.enum(LOCALES, { error: MESSAGES.localeInvalid }),
});
export type TUpdateProfileRequest = z.input<typeof ZUpdateProfileRequestSchema>;

export const ZRecoveryCodesSchema = z.object({
  /** Shown once: the server keeps only their hashes. */
  codes: z.array(z.string()),
  remaining: z.number().int(),
});
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodesSchema>;
export const ZRecoveryCodesResponseSchema = dataEnvelope(ZRecoveryCodesSchema);
export const ZRecoveryCodesStatusResponseSchema = dataEnvelope(
  z.object({ remaining: z.number().int(), total: z.number().int() }),
);
/** A fresh authenticator code confirms regenerating codes or re-enrolling. */
export const ZFreshCodeRequestSchema = z.object({ code: ZOtpCodeSchema });
export type TFreshCodeRequest = z.input<typeof ZFreshCodeRequestSchema>;

export const ZSessionSchema = z.object({
  uuid: ZUuidSchema,
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSessionSchema>;
export const ZListSessionsResponseSchema = dataEnvelope(z.array(ZSessionSchema));
export const ZSignedOutSessionsResponseSchema = dataEnvelope(
  z.object({ signed_out: z.number().int() }),
);

export const AUDIT_ACTIONS = [
  'password.reset_requested',
  'password.reset',
  'password.changed',
  'profile.updated',
  'two_factor.enabled',
  'two_factor.recovery_codes_generated',
  'two_factor.recovery_code_used',
  'two_factor.reset',
  'sessions.signed_out',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.deactivated',
  'member.reactivated',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

export const ZAuditEntrySchema = z.object({
  uuid: ZUuidSchema,
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({ uuid: z.string().nullable(), email: z.string().nullable() }),
  target: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntrySchema>;
export const ZListAuditLogResponseSchema = paginatedEnvelope(ZAuditEntrySchema);
