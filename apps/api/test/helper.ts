import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { PLATFORM } from '@ccp/schemas';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll } from 'vitest';

import type { AppOptions } from '../src/app.ts';
import type { DatabaseHandle } from '../src/db/index.ts';
import { createManualClock } from '../src/lib/clock.ts';
import { newUuid } from '../src/lib/ids.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { issueTokenPair } from '../src/lib/tokens.ts';
import { buildApp, createDatabase } from './support/api-under-test.ts';

export const TEST_PASSWORD = 'Correct-Horse-9!';
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

/** The database the suite runs on: Postgres when CCP_TEST_DATABASE_URL is set, else SQLite. */
export const testDialect = (): 'postgres' | 'sqlite' =>
  process.env.CCP_TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const openTestDatabase = async (): Promise<{
  handle: DatabaseHandle;
  dataDir: string;
  drop: () => Promise<void>;
}> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-api-test-'));
  const url = process.env.CCP_TEST_DATABASE_URL;
  if (url) {
    // One schema per app instance, so test files run in parallel without seeing each other.
    const schema = `t_${newUuid().replace(/-/g, '').slice(0, 16)}`;
    const admin = createDatabase({ dialect: 'postgres', url });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    const handle = createDatabase({ dialect: 'postgres', url, schema });
    const drop = async () => {
      await handle.close();
      const cleanup = createDatabase({ dialect: 'postgres', url });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
    return { handle, dataDir, drop };
  }
  const handle = createDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'test.sqlite') });
  const drop = async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { handle, dataDir, drop };
};

export type TestApp = FastifyInstance & { testClock: ReturnType<typeof createManualClock> };

/**
 * A fresh app on its own empty database with a manual clock, closed after the file's tests.
 * Call it in `beforeAll` or at the top of a `describe`.
 */
export const buildTestApp = async (options: Partial<AppOptions> = {}): Promise<TestApp> => {
  const { handle, dataDir, drop } = await openTestDatabase();
  const clock = createManualClock();
  const app = await buildApp({ database: handle, dataDir, clock, ...options });
  afterAll(async () => {
    await app.close();
    await drop();
  });
  return Object.assign(app, { testClock: clock });
};

export type FixtureCompany = { uuid: string; classrooms: { uuid: string; name: string }[] };

/** A company with two classrooms ("First" returned first) on the given plan. */
export const createCompany = async (
  app: FastifyInstance,
  { name = 'Test Co', plan = 'business' }: { name?: string; plan?: string } = {},
): Promise<FixtureCompany> => {
  const now = app.clock.now().toISOString();
  const uuid = newUuid();
  await app.db
    .insertInto('companies')
    .values({ uuid, name, plan_key: plan, created_at: now })
    .execute();
  const classrooms = [
    { uuid: newUuid(), name: 'First', position: 0 },
    { uuid: newUuid(), name: 'Second', position: 1 },
  ];
  await app.db
    .insertInto('classrooms')
    .values(classrooms.map((room) => ({ ...room, company_uuid: uuid, created_at: now })))
    .execute();
  return {
    uuid,
    classrooms: classrooms.map(({ uuid: id, name: roomName }) => ({ uuid: id, name: roomName })),
  };
};

export type FixtureUser = { uuid: string; email: string; companyUuid: string };

let userCounter = 0;
// Hash once: scrypt is deliberately slow and fixtures create many users.
let passwordHash: Promise<string> | undefined;

/** A user in the company; 2FA enabled with TEST_TOTP_SECRET unless told otherwise. */
export const createUser = async (
  app: FastifyInstance,
  company: { uuid: string },
  {
    email = `user${++userCounter}.${newUuid().slice(0, 8)}@example.test`,
    isAdmin = true,
    twoFactor = true,
  }: { email?: string; isAdmin?: boolean; twoFactor?: boolean } = {},
): Promise<FixtureUser> => {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const now = app.clock.now().toISOString();
  const uuid = newUuid();
  await app.db
    .insertInto('users')
    .values({
      uuid,
      company_uuid: company.uuid,
      email: email.toLowerCase(),
      password_hash: await passwordHash,
      first_name: 'Test',
      last_name: 'User',
      avatar: null,
      locale: 'en',
      is_admin: isAdmin ? 1 : 0,
      is_2fa_enabled: twoFactor ? 1 : 0,
      totp_secret: twoFactor ? TEST_TOTP_SECRET : null,
      totp_pending_secret: null,
      totp_last_step: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { uuid, email: email.toLowerCase(), companyUuid: company.uuid };
};

/** Full-stage tokens for a user, issued directly (the login flow itself is tested in auth tests). */
export const signIn = async (app: FastifyInstance, user: { uuid: string }) =>
  issueTokenPair({ db: app.db, clock: app.clock, settings: app.authSettings }, user.uuid, 'full');

/** A company, an admin user in it and a bearer header: the usual start of a route test. */
export const createSignedInUser = async (
  app: FastifyInstance,
  options: { plan?: string; isAdmin?: boolean } = {},
) => {
  const company = await createCompany(app, { plan: options.plan });
  const user = await createUser(app, company, { isAdmin: options.isAdmin ?? true });
  const tokens = await signIn(app, user);
  return { company, user, tokens, headers: { authorization: `Bearer ${tokens.access_token}` } };
};

/** The TOTP code for a secret at the app's clock time (plus `stepOffset` periods). */
export const totpCode = (app: FastifyInstance, secret = TEST_TOTP_SECRET, stepOffset = 0): string =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: app.clock.now().getTime() + stepOffset * 30_000,
  });

/** app.inject with JSON parsed; `json` is the parsed body (or undefined). */
export const call = async (app: FastifyInstance, options: InjectOptions) => {
  const response = await app.inject(options);
  let json: any;
  try {
    json = response.json();
  } catch {
    json = undefined;
  }
  return Object.assign(response, { json });
};

export { PLATFORM };
