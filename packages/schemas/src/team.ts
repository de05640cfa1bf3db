import { z } from 'zod';

import { ZAccountEmailSchema, ZLinkTokenSchema, ZNewPasswordSchema } from './account.ts';
import { ZOtpCodeSchema } from './auth.ts';
import { ZTimestampSchema, ZUuidSchema, dataEnvelope } from './common.ts';
import { MESSAGES } from './messages.ts';

// The team of a company (issue 17): its creators, their roles, invitations within the plan's
// creator-seats. Only administrators manage it.

export const TEAM_ROLES = ['admin', 'creator'] as const;
export type TTeamRole = (typeof TEAM_ROLES)[number];
export const ZTeamRoleSchema = z.enum(TEAM_ROLES, { error: MESSAGES.roleInvalid });

export const ZTeamMemberSchema = z.object({
  uuid: ZUuidSchema,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: ZTeamRoleSchema,
  is_2fa_enabled: z.boolean(),
  last_sign_in_at: ZTimestampSchema,
  deactivated_at: ZTimestampSchema,
  created_at: z.string(),
});
export type TTeamMember = z.infer<typeof ZTeamMemberSchema>;
export const ZListTeamMembersResponseSchema = dataEnvelope(z.array(ZTeamMemberSchema));
export const ZTeamMemberResponseSchema = dataEnvelope(ZTeamMemberSchema);

export const ZUpdateTeamMemberRequestSchema = z.object({ role: ZTeamRoleSchema });
export type TUpdateTeamMemberRequest = z.input<typeof ZUpdateTeamMemberRequestSchema>;

export const ZInvitationSchema = z.object({
  uuid: ZUuidSchema,
  email: z.string(),
  role: ZTeamRoleSchema,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type TInvitation = z.infer<typeof ZInvitationSchema>;
export const ZListInvitationsResponseSchema = dataEnvelope(z.array(ZInvitationSchema));
export const ZInvitationResponseSchema = dataEnvelope(ZInvitationSchema);

/** The one role whose invitation asks the inviter for a fresh authenticator code (issue 30). */
export const ROLE_NEEDING_FRESH_CODE: TTeamRole = 'admin';

export const ZCreateInvitationRequestSchema = z
  .object({
    email: ZAccountEmailSchema,
    role: ZTeamRoleSchema.default('creator'),
    /** A fresh code of the inviter's authenticator: a session alone never makes an administrator. */
    code: ZOtpCodeSchema.optional(),
  })
  .refine((body) => body.role !== ROLE_NEEDING_FRESH_CODE || body.code !== undefined, {
    path: ['code'],
    message: MESSAGES.freshCodeRequired,
  });
export type TCreateInvitationRequest = z.input<typeof ZCreateInvitationRequestSchema>;

/** What the invitee's page shows before they choose a password. */
export const ZCheckInvitationRequestSchema = z.object({ token: ZLinkTokenSchema });
export const ZInvitationPreviewResponseSchema = dataEnvelope(
  z.object({ email: z.string(), company_name: z.string(), role: ZTeamRoleSchema }),
);

const personName = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { message: MESSAGES.nameRequired })
    .max(100, { message: MESSAGES.nameMax });

export const ZAcceptInvitationRequestSchema = z.object({
  token: ZLinkTokenSchema,
  first_name: personName(),
  last_name: personName(),
  password: ZNewPasswordSchema,
});
export type TAcceptInvitationRequest = z.input<typeof ZAcceptInvitationRequestSchema>;
