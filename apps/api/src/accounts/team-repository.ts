import { INVITATION_TTL_DAYS } from '@ccp/schemas';
import type { TInvitation, TTeamMember, TTeamRole } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { InvitationsTable, UsersTable } from '../db/types.ts';
import { DAY_MS, isoNow } from '../lib/clock.ts';
import { hashToken, newToken, newUuid } from '../lib/ids.ts';

// A company's creators and invitations (issue 17), one column list each.

type App = Pick<FastifyInstance, 'db' | 'clock'>;

const MEMBER_COLUMNS = [
  'uuid',
  'email',
  'first_name',
  'last_name',
  'is_admin',
  'is_2fa_enabled',
  'last_sign_in_at',
  'deactivated_at',
  'created_at',
] as const;

type MemberRow = Pick<UsersTable, (typeof MEMBER_COLUMNS)[number]>;

export const roleOf = (isAdmin: number | boolean): TTeamRole =>
  Number(isAdmin) === 1 ? 'admin' : 'creator';

const serializeMember = (row: MemberRow): TTeamMember => ({
  uuid: row.uuid,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  role: roleOf(row.is_admin),
  is_2fa_enabled: Number(row.is_2fa_enabled) === 1,
  last_sign_in_at: row.last_sign_in_at ?? null,
  deactivated_at: row.deactivated_at ?? null,
  created_at: row.created_at,
});

/** Active creators first (administrators, then by name), deactivated ones last. */
export const listMembers = async (app: App, companyUuid: string): Promise<TTeamMember[]> => {
  const rows = await app.db
    .selectFrom('users')
    .select([...MEMBER_COLUMNS])
    .where('company_uuid', '=', companyUuid)
    .execute();
  return rows
    .map(serializeMember)
    .sort(
      (a, b) =>
        Number(a.deactivated_at !== null) - Number(b.deactivated_at !== null) ||
        Number(b.role === 'admin') - Number(a.role === 'admin') ||
        `${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`),
    );
};

export const findMember = async (
  app: App,
  companyUuid: string,
  uuid: string,
): Promise<TTeamMember | null> => {
  const row = await app.db
    .selectFrom('users')
    .select([...MEMBER_COLUMNS])
    .where('company_uuid', '=', companyUuid)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return row ? serializeMember(row) : null;
};

/**
 * Sets a member's role or deactivation only if an active administrator other than them remains
 * (one statement, so two administrators demoting each other cannot both win). False otherwise.
 */
export const updateKeepingAnAdministrator = async (
  app: App,
  companyUuid: string,
  uuid: string,
  change: { is_admin?: number; deactivated_at?: string },
): Promise<boolean> => {
  const result = await app.db
    .updateTable('users')
    .set({ ...change, updated_at: isoNow(app.clock) })
    .where('uuid', '=', uuid)
    .where('company_uuid', '=', companyUuid)
    .where((eb) =>
      eb(
        eb
          .selectFrom('users as others')
          .select((inner) => inner.fn.countAll().as('n'))
          .where('others.company_uuid', '=', companyUuid)
          .where('others.uuid', '!=', uuid)
          .where('others.is_admin', '=', 1)
          .where('others.deactivated_at', 'is', null),
        '>=',
        1,
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const updateMember = async (
  app: App,
  companyUuid: string,
  uuid: string,
  change: { is_admin?: number; deactivated_at?: string | null },
): Promise<void> => {
  await app.db
    .updateTable('users')
    .set({ ...change, updated_at: isoNow(app.clock) })
    .where('uuid', '=', uuid)
    .where('company_uuid', '=', companyUuid)
    .execute();
};

type InvitationRow = InvitationsTable & { inviter_email: string | null };

const serializeInvitation = (row: InvitationRow): TInvitation => ({
  uuid: row.uuid,
  email: row.email,
  role: row.role === 'admin' ? 'admin' : 'creator',
  invited_by: row.inviter_email,
  created_at: row.created_at,
  expires_at: row.expires_at,
});

const pendingInvitations = (app: App, companyUuid: string) =>
  app.db
    .selectFrom('invitations')
    .leftJoin('users', 'users.uuid', 'invitations.invited_by')
    .selectAll('invitations')
    .select('users.email as inviter_email')
    .where('invitations.company_uuid', '=', companyUuid)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', isoNow(app.clock));

export const listInvitations = async (app: App, companyUuid: string): Promise<TInvitation[]> => {
  const rows = await pendingInvitations(app, companyUuid)
    .orderBy('invitations.created_at', 'desc')
    .execute();
  return rows.map(serializeInvitation);
};

export const findPendingInvitation = async (
  app: App,
  companyUuid: string,
  { uuid, email }: { uuid?: string; email?: string },
): Promise<TInvitation | null> => {
  let query = pendingInvitations(app, companyUuid);
  if (uuid) query = query.where('invitations.uuid', '=', uuid);
  if (email) query = query.where('invitations.email', '=', email);
  const row = await query.executeTakeFirst();
  return row ? serializeInvitation(row) : null;
};

export const createInvitation = async (
  app: App,
  {
    companyUuid,
    email,
    role,
    invitedBy,
  }: {
    companyUuid: string;
    email: string;
    role: TTeamRole;
    invitedBy: string;
  },
): Promise<{ token: string; uuid: string }> => {
  const token = newToken();
  const now = app.clock.now();
  const uuid = newUuid();
  await app.db
    .insertInto('invitations')
    .values({
      uuid,
      company_uuid: companyUuid,
      email,
      role,
      token_hash: hashToken(token),
      invited_by: invitedBy,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      accepted_at: null,
      revoked_at: null,
      user_uuid: null,
    })
    .execute();
  return { token, uuid };
};

export const revokeInvitation = async (app: App, uuid: string): Promise<boolean> => {
  const result = await app.db
    .updateTable('invitations')
    .set({ revoked_at: isoNow(app.clock) })
    .where('uuid', '=', uuid)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** The live invitation behind a link, with its company's name; null when not live. */
export const findInvitationByToken = async (app: App, token: string) =>
  (await app.db
    .selectFrom('invitations')
    .innerJoin('companies', 'companies.uuid', 'invitations.company_uuid')
    .selectAll('invitations')
    .select('companies.name as company_name')
    .where('invitations.token_hash', '=', hashToken(token))
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', isoNow(app.clock))
    .executeTakeFirst()) ?? null;

/**
 * Spends the invitation (before its account exists, so that of two acceptances at once the
 * second waits on this row and finds it spent); false when another request accepted it first.
 */
export const acceptInvitation = async (app: App, uuid: string): Promise<boolean> => {
  const result = await app.db
    .updateTable('invitations')
    .set({ accepted_at: isoNow(app.clock) })
    .where('uuid', '=', uuid)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Records the account an accepted invitation made. */
export const setInvitationUser = async (app: App, uuid: string, userUuid: string) => {
  await app.db
    .updateTable('invitations')
    .set({ user_uuid: userUuid })
    .where('uuid', '=', uuid)
    .execute();
};
