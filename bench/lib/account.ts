import type { FastifyInstance } from 'fastify';

import { newUuid } from '../../apps/api/src/lib/ids.ts';
import { issueTokenPair } from '../../apps/api/src/lib/tokens.ts';

// The account every bench works as: a company on the enterprise plan (no plan limit gets in the
// way), its classroom and an administrator signed in with full-stage tokens.

export type BenchAccount = {
  companyUuid: string;
  classroomUuid: string;
  userUuid: string;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
};

export const createBenchAccount = async (
  app: Pick<FastifyInstance, 'db' | 'clock' | 'authSettings'>,
  // Full-stage tokens are honoured only for a user with 2FA set up (issue 30): a real sign-in
  // always ends so.
  { twoFactor = true }: { twoFactor?: boolean } = {},
): Promise<BenchAccount> => {
  const now = app.clock.now().toISOString();
  const companyUuid = newUuid();
  const classroomUuid = newUuid();
  const userUuid = newUuid();
  await app.db
    .insertInto('companies')
    .values({ uuid: companyUuid, name: 'Bench', plan_key: 'enterprise', created_at: now })
    .execute();
  await app.db
    .insertInto('classrooms')
    .values({
      uuid: classroomUuid,
      company_uuid: companyUuid,
      name: 'Bench',
      position: 0,
      created_at: now,
    })
    .execute();
  await app.db
    .insertInto('users')
    .values({
      uuid: userUuid,
      company_uuid: companyUuid,
      email: 'bench@example.test',
      password_hash: 'x',
      first_name: 'Bench',
      last_name: 'User',
      avatar: null,
      locale: 'en',
      is_admin: 1,
      is_2fa_enabled: twoFactor ? 1 : 0,
      totp_secret: null,
      totp_pending_secret: null,
      totp_last_step: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const tokens = await issueTokenPair(
    { db: app.db, clock: app.clock, settings: app.authSettings },
    userUuid,
    'full',
  );
  return {
    companyUuid,
    classroomUuid,
    userUuid,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    headers: { authorization: `Bearer ${tokens.access_token}` },
  };
};

/**
 * A JSON call to the app as the bench's administrator (`headers`), answering the API's body; a
 * refusal stops the bench with the API's answer.
 */
export const benchApi =
  (app: Pick<FastifyInstance, 'inject'>, headers: BenchAccount['headers']) =>
  async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const response = await app.inject({ method, url, headers, payload: payload as object });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json<{ data: Record<string, unknown> }>();
  };
