import {
  MESSAGES,
  ZAcceptInvitationRequestSchema,
  ZCheckInvitationRequestSchema,
  ZCreateInvitationRequestSchema,
  ZFreshCodeRequestSchema,
  ZInvitationPreviewResponseSchema,
  ZInvitationResponseSchema,
  ZListAuditLogResponseSchema,
  ZListInvitationsResponseSchema,
  ZListTeamMembersResponseSchema,
  ZLoginResponseSchema,
  ZPageQuerySchema,
  ZTeamMemberResponseSchema,
  ZUpdateTeamMemberRequestSchema,
  ZUuidParamsSchema,
  passwordProblem,
} from '@ccp/schemas';
import type { TTeamMember } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { LINK_PATHS, invitationMail, linkUrl } from '../../../accounts/account-mail.ts';
import { listAudit, recordAudit } from '../../../accounts/audit-log.ts';
import { endSessions } from '../../../accounts/sessions.ts';
import {
  acceptInvitation,
  createInvitation,
  findInvitationByToken,
  findMember,
  findPendingInvitation,
  listInvitations,
  listMembers,
  revokeInvitation,
  setInvitationUser,
  updateKeepingAnAdministrator,
  updateMember,
} from '../../../accounts/team-repository.ts';
import { findUserByEmail, localeOf, resetTwoFactor } from '../../../accounts/users-repository.ts';
import type { Db } from '../../../db/index.ts';
import type { UsersTable } from '../../../db/types.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { revokeAllApiTokens } from '../../../lib/api-tokens.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
import { isoNow } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/ids.ts';
import { sendMail } from '../../../lib/mail.ts';
import { pageRequest, paginated } from '../../../lib/pagination.ts';
import { isUniqueViolation } from '../../../learners/learners-repository.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { withCompanyLock } from '../../../lib/company-lock.ts';
import { assertWithinPlan } from '../../../lib/plan-limits.ts';
import { lockedFor, recordFailure } from '../../../lib/rate-limit.ts';
import { issueTokenPair } from '../../../lib/tokens.ts';
import { usageOf } from '../../../lib/usage.ts';
import { authOf } from '../../../plugins/auth.ts';
import { requireFreshCode, tokenDeps, tooManyAttempts } from '../auth/shared.ts';

// The team (issue 17): administrators list their company's creators, invite new ones within the
// plan's creator-seats (pending invitations hold a seat), change roles without ever leaving the
// company without an administrator, deactivate creators (their sessions and tokens end at once,
// their courses stay), reset a creator's 2FA, and read the audit log.

const tags = ['team'];

/** The signed-in administrator; 403 for every other creator. */
const adminOf = (request: FastifyRequest): UsersTable => {
  const { user } = authOf(request);
  if (Number(user.is_admin) !== 1) throw new AppError('NO_PRIVILEGES', MESSAGES.teamAdminOnly);
  return user;
};

const actorOf = (user: UsersTable) => ({ uuid: user.uuid, email: user.email });

export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  /** 402 when one more seat would pass the plan's creator-seats; run under the company's lock. */
  const assertSeatFree = async (trx: Db, companyUuid: string) => {
    const used = await usageOf(trx, companyUuid, 'creator-seats', app.clock.now());
    await assertWithinPlan(trx, companyUuid, 'creator-seats', used + 1);
  };

  /**
   * Changes a member's role or deactivates them only if another active administrator remains,
   * under the company's lock: two administrators demoting each other at once left companies on
   * Postgres with none (each statement counted the other before either committed).
   */
  const changeKeepingAnAdministrator = async (
    companyUuid: string,
    uuid: string,
    change: { is_admin?: number; deactivated_at?: string },
  ) => {
    const kept = await withCompanyLock(app, companyUuid, (trx) =>
      updateKeepingAnAdministrator({ db: trx, clock: app.clock }, companyUuid, uuid, change),
    );
    if (!kept) throw new AppError('LAST_ADMINISTRATOR', MESSAGES.lastAdministrator);
  };

  const memberOr404 = async (companyUuid: string, uuid: string): Promise<TTeamMember> => {
    const member = await findMember(app, companyUuid, uuid);
    if (!member) throw notFound();
    return member;
  };

  app.get(
    '/api/v1/team/members',
    {
      schema: {
        tags,
        summary: "The company's creators: role, 2FA, last sign-in (administrators)",
        response: { 200: ZListTeamMembersResponseSchema },
      },
    },
    async (request) => ({ data: await listMembers(app, adminOf(request).company_uuid) }),
  );

  app.patch(
    '/api/v1/team/members/:uuid',
    {
      schema: {
        tags,
        summary: "Change a creator's role (admin or creator)",
        'x-errors': [409],
        description:
          'Demoting the last active administrator answers 409 LAST_ADMINISTRATOR: a company always keeps one.',
        params: ZUuidParamsSchema,
        body: ZUpdateTeamMemberRequestSchema,
        response: { 200: ZTeamMemberResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const member = await memberOr404(admin.company_uuid, request.params.uuid);
      const { role } = request.body;
      if (member.role !== role) {
        if (role === 'creator') {
          await changeKeepingAnAdministrator(admin.company_uuid, member.uuid, { is_admin: 0 });
        } else {
          await updateMember(app, admin.company_uuid, member.uuid, { is_admin: 1 });
        }
        await recordAudit(app, {
          companyUuid: admin.company_uuid,
          actor: actorOf(admin),
          action: 'member.role_changed',
          target: member.email,
          details: { from: member.role, to: role },
          request,
        });
      }
      return { data: await memberOr404(admin.company_uuid, member.uuid) };
    },
  );

  app.post(
    '/api/v1/team/members/:uuid/deactivate',
    {
      schema: {
        tags,
        summary: 'Deactivate a creator: their sessions and API tokens end at once',
        'x-errors': [409],
        description:
          'Their courses stay. Not yourself (409); not the last active administrator (409 LAST_ADMINISTRATOR). The seat is freed.',
        params: ZUuidParamsSchema,
        response: { 200: ZTeamMemberResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const member = await memberOr404(admin.company_uuid, request.params.uuid);
      if (member.uuid === admin.uuid) {
        throw new AppError('CONFLICT', MESSAGES.cannotChangeYourself);
      }
      if (member.deactivated_at) throw new AppError('CONFLICT', MESSAGES.memberDeactivated);
      const now = isoNow(app.clock);
      if (member.role === 'admin') {
        await changeKeepingAnAdministrator(admin.company_uuid, member.uuid, {
          deactivated_at: now,
        });
      } else {
        await updateMember(app, admin.company_uuid, member.uuid, { deactivated_at: now });
      }
      await endSessions(app, member.uuid);
      await revokeAllApiTokens(app, member.uuid);
      await recordAudit(app, {
        companyUuid: admin.company_uuid,
        actor: actorOf(admin),
        action: 'member.deactivated',
        target: member.email,
        request,
      });
      return { data: await memberOr404(admin.company_uuid, member.uuid) };
    },
  );

  app.post(
    '/api/v1/team/members/:uuid/reactivate',
    {
      schema: {
        tags,
        summary: 'Reactivate a deactivated creator (takes a seat again: 402 when none is free)',
        params: ZUuidParamsSchema,
        response: { 200: ZTeamMemberResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const member = await memberOr404(admin.company_uuid, request.params.uuid);
      if (!member.deactivated_at) throw new AppError('CONFLICT', MESSAGES.memberNotDeactivated);
      await withCompanyLock(app, admin.company_uuid, async (trx) => {
        await assertSeatFree(trx, admin.company_uuid);
        await updateMember({ db: trx, clock: app.clock }, admin.company_uuid, member.uuid, {
          deactivated_at: null,
        });
      });
      await recordAudit(app, {
        companyUuid: admin.company_uuid,
        actor: actorOf(admin),
        action: 'member.reactivated',
        target: member.email,
        request,
      });
      return { data: await memberOr404(admin.company_uuid, member.uuid) };
    },
  );

  app.post(
    '/api/v1/team/members/:uuid/reset-2fa',
    {
      schema: {
        tags,
        summary: "Reset a creator's 2FA: they set it up again at their next sign-in",
        description:
          "Body {code}: a fresh code of the administrator's own authenticator, spent like a sign-in code (a session alone cannot take over another's account). Their recovery codes, sessions and API tokens end. Recorded in the audit log with who did it.",
        params: ZUuidParamsSchema,
        body: ZFreshCodeRequestSchema,
        response: { 200: ZTeamMemberResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request);
      const member = await memberOr404(admin.company_uuid, request.params.uuid);
      await requireFreshCode(request, reply, admin, request.body.code);
      await resetTwoFactor(app, member.uuid);
      await endSessions(app, member.uuid);
      // An administrator resets someone's 2FA when a phone is lost or stolen: their API tokens
      // end with their sessions (issue 30).
      await revokeAllApiTokens(app, member.uuid);
      await recordAudit(app, {
        companyUuid: admin.company_uuid,
        actor: actorOf(admin),
        action: 'two_factor.reset',
        target: member.email,
        request,
      });
      return { data: await memberOr404(admin.company_uuid, member.uuid) };
    },
  );

  app.get(
    '/api/v1/team/invitations',
    {
      schema: {
        tags,
        summary: 'Pending invitations (each holds a seat until accepted, revoked or expired)',
        response: { 200: ZListInvitationsResponseSchema },
      },
    },
    async (request) => ({ data: await listInvitations(app, adminOf(request).company_uuid) }),
  );

  app.post(
    '/api/v1/team/invitations',
    {
      schema: {
        tags,
        summary: 'Invite a creator by e-mail (a single-use link valid 7 days)',
        'x-errors': [409],
        description:
          "Inviting an administrator needs `code`, a fresh code of the inviter's authenticator spent like a sign-in code (422 without it). Answers 402 PLAN_LIMIT_REACHED when creators plus pending invitations would pass the plan's creator-seats; 422 when the e-mail is already a creator of this company; 409 when an invitation to it is pending. An e-mail with an account in another company is invited (nothing says it exists); accepting answers 422.",
        body: ZCreateInvitationRequestSchema,
        response: { 201: ZInvitationResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request);
      const { email, role } = request.body;
      // Only a member of this company is refused: saying so of another company's account would
      // tell any administrator which addresses have one (issue 30). Such an invitation is
      // refused when accepted, to the invitee.
      const existing = await findUserByEmail(app, email);
      if (existing && existing.company_uuid === admin.company_uuid) {
        throw validationError({ email: [MESSAGES.emailTaken] });
      }
      // The schema asks an administrator's invitation for the code; a session alone makes none.
      if (request.body.code !== undefined) {
        await requireFreshCode(request, reply, admin, request.body.code);
      }
      const { token, uuid } = await withCompanyLock(app, admin.company_uuid, async (trx) => {
        const locked = { db: trx, clock: app.clock };
        if (await findPendingInvitation(locked, admin.company_uuid, { email })) {
          throw new AppError('CONFLICT', MESSAGES.invitationPending);
        }
        await assertSeatFree(trx, admin.company_uuid);
        return createInvitation(locked, {
          companyUuid: admin.company_uuid,
          email,
          role,
          invitedBy: admin.uuid,
        });
      });
      const company = await app.db
        .selectFrom('companies')
        .select('name')
        .where('uuid', '=', admin.company_uuid)
        .executeTakeFirstOrThrow();
      const mail = invitationMail(
        localeOf(admin.locale),
        { inviter: `${admin.first_name} ${admin.last_name}`, company: company.name },
        linkUrl(app.publicUrl, LINK_PATHS.invitation, token),
      );
      await sendMail(app, { to: email, companyUuid: admin.company_uuid, ...mail });
      await recordAudit(app, {
        companyUuid: admin.company_uuid,
        actor: actorOf(admin),
        action: 'invitation.created',
        target: email,
        details: { role },
        request,
      });
      const invitation = await findPendingInvitation(app, admin.company_uuid, { uuid });
      return reply.code(201).send({ data: invitation! });
    },
  );

  app.delete(
    '/api/v1/team/invitations/:uuid',
    {
      schema: {
        tags,
        summary: 'Revoke a pending invitation: its link stops working and the seat is freed',
        params: ZUuidParamsSchema,
        response: { 200: ZInvitationResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const invitation = await findPendingInvitation(app, admin.company_uuid, {
        uuid: request.params.uuid,
      });
      if (!invitation || !(await revokeInvitation(app, invitation.uuid))) throw notFound();
      await recordAudit(app, {
        companyUuid: admin.company_uuid,
        actor: actorOf(admin),
        action: 'invitation.revoked',
        target: invitation.email,
        request,
      });
      return { data: invitation };
    },
  );

  app.get(
    '/api/v1/team/audit-log',
    {
      schema: {
        tags,
        summary: 'The audit log: who did what, when and from where (administrators)',
        querystring: ZPageQuerySchema,
        response: { 200: ZListAuditLogResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const page = pageRequest(request.query);
      const { rows, total } = await listAudit(app, admin.company_uuid, page);
      return paginated(rows, total, page, request.url);
    },
  );

  // The invitee's side: no account yet, the link's token is the credential.
  const invitationLink = async (request: FastifyRequest, token: string) => {
    const key = `invite-ip:${request.ip}`;
    const wait = await lockedFor(app, [key], app.authSettings.maxFailuresPerMinute);
    if (wait !== null) return { wait, invitation: null };
    const invitation = await findInvitationByToken(app, token);
    if (!invitation) {
      await recordFailure(app, [key]);
      throw new AppError('INVALID_LINK', MESSAGES.linkInvalid);
    }
    return { wait: null, invitation };
  };

  app.post(
    '/api/v1/invitations/preview',
    {
      config: { auth: false },
      schema: {
        tags,
        summary: "An invitation link's company, e-mail and role, before accepting",
        description: 'An unknown, used, revoked or expired link answers 400 INVALID_LINK.',
        security: [],
        body: ZCheckInvitationRequestSchema,
        response: { 200: ZInvitationPreviewResponseSchema },
      },
    },
    async (request, reply) => {
      const { wait, invitation } = await invitationLink(request, request.body.token);
      if (wait !== null || !invitation) throw tooManyAttempts(reply, wait ?? 60);
      return {
        data: {
          email: invitation.email,
          company_name: invitation.company_name,
          role: invitation.role === 'admin' ? ('admin' as const) : ('creator' as const),
        },
      };
    },
  );

  app.post(
    '/api/v1/invitations/accept',
    {
      config: { auth: false },
      schema: {
        tags,
        summary: 'Accept an invitation: choose a name and password, then set up 2FA',
        description:
          'Creates the account and answers first-step tokens (as a password sign-in does): the client continues with 2FA setup (2fa-qrcode, 2fa-verify/). The link works once.',
        security: [],
        body: ZAcceptInvitationRequestSchema,
        response: { 201: ZLoginResponseSchema },
      },
    },
    async (request, reply) => {
      const { wait, invitation } = await invitationLink(request, request.body.token);
      if (wait !== null || !invitation) throw tooManyAttempts(reply, wait ?? 60);
      const problem = passwordProblem(request.body.password, invitation.email);
      if (problem) throw validationError({ password: [problem] });
      const now = isoNow(app.clock);
      const userUuid = newUuid();
      const passwordHash = await hashPassword(request.body.password);
      // The invitation is spent and the account made in one transaction: of two acceptances at
      // once only one spends it (the other answers 409), and an e-mail that got an account
      // meanwhile (another company's invitation, accepted first) answers 422 and spends nothing.
      await app.db.transaction().execute(async (trx) => {
        const locked = { db: trx, clock: app.clock };
        if (!(await acceptInvitation(locked, invitation.uuid))) {
          throw new AppError('CONFLICT', MESSAGES.invitationAccepted);
        }
        try {
          await trx
            .insertInto('users')
            .values({
              uuid: userUuid,
              company_uuid: invitation.company_uuid,
              email: invitation.email,
              password_hash: passwordHash,
              first_name: request.body.first_name,
              last_name: request.body.last_name,
              avatar: null,
              locale: requestLanguage(request),
              is_admin: invitation.role === 'admin' ? 1 : 0,
              is_2fa_enabled: 0,
              totp_secret: null,
              totp_pending_secret: null,
              totp_last_step: null,
              created_at: now,
              updated_at: now,
            })
            .execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw validationError({ email: [MESSAGES.emailTaken] });
          throw error;
        }
        await setInvitationUser(locked, invitation.uuid, userUuid);
      });
      await recordAudit(app, {
        companyUuid: invitation.company_uuid,
        actor: { uuid: userUuid, email: invitation.email },
        action: 'invitation.accepted',
        target: invitation.email,
        details: { role: invitation.role },
        request,
      });
      const pair = await issueTokenPair(tokenDeps(app), userUuid, 'otp');
      return reply.code(201).send({ data: { ...pair, is_2fa_enabled: false } });
    },
  );
};
