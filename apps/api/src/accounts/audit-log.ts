import type { TAuditAction, TAuditEntry } from '@ccp/schemas';
import { AUDIT_ACTIONS } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { AuditLogTable } from '../db/types.ts';
import { isoNow } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import type { PageRequest } from '../lib/pagination.ts';
import { offsetOf } from '../lib/pagination.ts';

// The audit log of issue 17: every account and team action, who did it, what, when and from
// where (address and browser), readable by the company's administrators.

type TDetails = Record<string, string | number | boolean | null>;

export type AuditInput = {
  companyUuid: string;
  actor: { uuid: string; email: string } | null;
  action: TAuditAction;
  /** The person or thing acted on, as an administrator recognises it (an e-mail). */
  target?: string | null;
  details?: TDetails;
  request?: Pick<FastifyRequest, 'ip' | 'headers'>;
};

const USER_AGENT_MAX = 300;

export const userAgentOf = (request: Pick<FastifyRequest, 'headers'>): string | null => {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && agent !== '' ? agent.slice(0, USER_AGENT_MAX) : null;
};

export const recordAudit = async (
  app: Pick<FastifyInstance, 'db' | 'clock'>,
  entry: AuditInput,
): Promise<void> => {
  await app.db
    .insertInto('audit_log')
    .values({
      uuid: newUuid(),
      company_uuid: entry.companyUuid,
      actor_uuid: entry.actor?.uuid ?? null,
      actor_email: entry.actor?.email ?? null,
      action: entry.action,
      target: entry.target ?? null,
      details: JSON.stringify(entry.details ?? {}),
      ip: entry.request?.ip ?? null,
      user_agent: entry.request ? userAgentOf(entry.request) : null,
      created_at: isoNow(app.clock),
    })
    .execute();
};

const parseDetails = (text: string): TDetails => {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as TDetails)
      : {};
  } catch {
    return {};
  }
};

const serializeAudit = (row: AuditLogTable): TAuditEntry => ({
  uuid: row.uuid,
  action: (AUDIT_ACTIONS as readonly string[]).includes(row.action)
    ? (row.action as TAuditAction)
    : 'profile.updated',
  actor: { uuid: row.actor_uuid, email: row.actor_email },
  target: row.target,
  details: parseDetails(row.details),
  ip: row.ip,
  user_agent: row.user_agent,
  created_at: row.created_at,
});

/** A page of the company's log, newest first. */
export const listAudit = async (
  app: Pick<FastifyInstance, 'db'>,
  companyUuid: string,
  page: PageRequest,
): Promise<{ rows: TAuditEntry[]; total: number }> => {
  const base = app.db.selectFrom('audit_log').where('company_uuid', '=', companyUuid);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('uuid', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
  ]);
  return { rows: rows.map(serializeAudit), total: Number(count.n) };
};
