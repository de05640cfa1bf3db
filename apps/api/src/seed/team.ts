import type { Transaction } from 'kysely';

import type { Database } from '../db/types.ts';
import { DAY_MS } from '../lib/clock.ts';
import { hashToken } from '../lib/ids.ts';
import { createRandom } from './random.ts';

// Acme's team for the Team, Plan and audit-log screens (issue 17): creators with and without
// 2FA, one deactivated, a pending invitation, and the log of how it came to be. Its own random
// stream, so it reshuffles nothing else of the demo.

const TEAM_SEED = 20_260_117;

type TeamSeed = {
  companyUuid: string;
  admin: { uuid: string; email: string };
  passwordHash: string;
  now: Date;
};

const MEMBERS = [
  {
    first: 'Marta',
    last: 'Rossi',
    email: 'marta.rossi@example.com',
    admin: false,
    twoFactor: true,
    joined: 210,
    seen: 0.2,
    deactivated: null,
  },
  {
    first: 'Tobias',
    last: 'Klein',
    email: 'tobias.klein@example.com',
    admin: false,
    twoFactor: true,
    joined: 160,
    seen: 3,
    deactivated: null,
  },
  {
    first: 'Aisha',
    last: 'Okafor',
    email: 'aisha.okafor@example.com',
    admin: true,
    twoFactor: true,
    joined: 120,
    seen: 1,
    deactivated: null,
  },
  {
    first: 'Jamie',
    last: 'Doyle',
    email: 'jamie.doyle@example.com',
    admin: false,
    twoFactor: false,
    joined: 5,
    seen: null,
    deactivated: null,
  },
  {
    first: 'Paolo',
    last: 'Greco',
    email: 'paolo.greco@example.com',
    admin: false,
    twoFactor: true,
    joined: 250,
    seen: 40,
    deactivated: 30,
  },
] as const;

export const seedTeam = async (trx: Transaction<Database>, seed: TeamSeed): Promise<void> => {
  const random = createRandom(TEAM_SEED);
  const at = (daysAgo: number, minutes = 0) =>
    new Date(seed.now.getTime() - daysAgo * DAY_MS + minutes * 60_000).toISOString();
  const members = MEMBERS.map((member) => ({ ...member, uuid: random.uuid() }));
  await trx
    .insertInto('users')
    .values(
      members.map((member) => ({
        uuid: member.uuid,
        company_uuid: seed.companyUuid,
        email: member.email,
        password_hash: seed.passwordHash,
        first_name: member.first,
        last_name: member.last,
        avatar: null,
        locale: member.first === 'Tobias' ? 'de' : member.first === 'Marta' ? 'it' : 'en',
        is_admin: member.admin ? 1 : 0,
        // No demo TOTP secret for them: nobody signs in as these, they fill the team.
        is_2fa_enabled: member.twoFactor ? 1 : 0,
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: null,
        created_at: at(member.joined),
        updated_at: at(member.deactivated ?? member.joined),
        last_sign_in_at: member.seen === null ? null : at(member.seen),
        deactivated_at: member.deactivated === null ? null : at(member.deactivated),
      })),
    )
    .execute();
  await trx
    .updateTable('users')
    .set({ last_sign_in_at: at(0, -45) })
    .where('uuid', '=', seed.admin.uuid)
    .execute();

  const invitations = [
    { email: 'luca.bianchi@acme.example', role: 'creator', sent: 2 },
    { email: 'sophie.martin@acme.example', role: 'admin', sent: 0.5 },
  ];
  await trx
    .insertInto('invitations')
    .values(
      invitations.map((invitation) => ({
        uuid: random.uuid(),
        company_uuid: seed.companyUuid,
        email: invitation.email,
        role: invitation.role,
        // A hash of nothing anyone holds: the demo's links were never mailed.
        token_hash: hashToken(`demo-invitation-${invitation.email}-${random.uuid()}`),
        invited_by: seed.admin.uuid,
        created_at: at(invitation.sent),
        expires_at: at(invitation.sent - 7),
        accepted_at: null,
        revoked_at: null,
        user_uuid: null,
      })),
    )
    .execute();

  const office = '93.41.12.7';
  const browser =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  const admin = { uuid: seed.admin.uuid, email: seed.admin.email };
  const entries: {
    daysAgo: number;
    actor: { uuid: string; email: string } | null;
    action: string;
    target: string;
    details?: Record<string, string | number>;
  }[] = [
    {
      daysAgo: 250,
      actor: admin,
      action: 'invitation.created',
      target: 'paolo.greco@example.com',
      details: { role: 'creator' },
    },
    {
      daysAgo: 210,
      actor: admin,
      action: 'invitation.created',
      target: 'marta.rossi@example.com',
      details: { role: 'creator' },
    },
    {
      daysAgo: 160,
      actor: admin,
      action: 'invitation.created',
      target: 'tobias.klein@example.com',
      details: { role: 'creator' },
    },
    {
      daysAgo: 120,
      actor: admin,
      action: 'member.role_changed',
      target: 'aisha.okafor@example.com',
      details: { from: 'creator', to: 'admin' },
    },
    {
      daysAgo: 64,
      actor: null,
      action: 'password.reset_requested',
      target: 'tobias.klein@example.com',
    },
    {
      daysAgo: 64,
      actor: members[1]!,
      action: 'password.reset',
      target: 'tobias.klein@example.com',
      details: { sessions_ended: 2 },
    },
    { daysAgo: 30, actor: admin, action: 'member.deactivated', target: 'paolo.greco@example.com' },
    { daysAgo: 12, actor: admin, action: 'two_factor.reset', target: 'marta.rossi@example.com' },
    {
      daysAgo: 11,
      actor: members[0]!,
      action: 'two_factor.enabled',
      target: 'marta.rossi@example.com',
    },
    {
      daysAgo: 5,
      actor: admin,
      action: 'invitation.created',
      target: 'jamie.doyle@example.com',
      details: { role: 'creator' },
    },
    {
      daysAgo: 5,
      actor: members[3]!,
      action: 'invitation.accepted',
      target: 'jamie.doyle@example.com',
      details: { role: 'creator' },
    },
    {
      daysAgo: 2,
      actor: admin,
      action: 'invitation.created',
      target: 'luca.bianchi@acme.example',
      details: { role: 'creator' },
    },
    {
      daysAgo: 0.5,
      actor: admin,
      action: 'invitation.created',
      target: 'sophie.martin@acme.example',
      details: { role: 'admin' },
    },
  ];
  await trx
    .insertInto('audit_log')
    .values(
      entries.map((entry, index) => ({
        uuid: random.uuid(),
        company_uuid: seed.companyUuid,
        actor_uuid: entry.actor?.uuid ?? null,
        actor_email: entry.actor?.email ?? null,
        action: entry.action,
        target: entry.target,
        details: JSON.stringify(entry.details ?? {}),
        ip: office,
        user_agent: browser,
        created_at: at(entry.daysAgo, index),
      })),
    )
    .execute();
};
