import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

import { pendingMigrations } from '../db/index.ts';

// What a load balancer asks before sending traffic to this process (GET /api/ready), unlike
// /api/health, which a process manager asks to know the process is alive: the database answers,
// its schema is the one this code expects, files can be written, and the process is not stopping.

export const READINESS_REASONS = [
  'stopping',
  'database_unreachable',
  'migrations_pending',
  'storage_not_writable',
] as const;
export type ReadinessReason = (typeof READINESS_REASONS)[number];

/** The key the storage check writes and removes (one per probe: probes may overlap). */
const probeKey = () => `ready/${randomUUID()}`;

const databaseAnswers = async (app: FastifyInstance): Promise<boolean> => {
  try {
    await sql`select 1`.execute(app.db);
    return true;
  } catch (error) {
    app.log.warn({ err: error }, 'readiness: database unreachable');
    return false;
  }
};

const migrationsAtHead = async (app: FastifyInstance): Promise<boolean> => {
  try {
    return (await pendingMigrations({ db: app.db, dialect: app.dialect })).length === 0;
  } catch (error) {
    app.log.warn({ err: error }, 'readiness: migrations unknown');
    return false;
  }
};

const storageWritable = async (app: FastifyInstance): Promise<boolean> => {
  const key = probeKey();
  try {
    await app.files.putBytes(key, 'ready');
    await app.files.remove(key);
    return true;
  } catch (error) {
    app.log.warn({ err: error }, 'readiness: storage not writable');
    return false;
  }
};

/** Why this process should not take traffic now; empty when it is ready. */
export const readinessReasons = async (app: FastifyInstance): Promise<ReadinessReason[]> => {
  if (app.lifecycle.stopping) return ['stopping'];
  const reasons: ReadinessReason[] = [];
  if (!(await databaseAnswers(app))) {
    reasons.push('database_unreachable');
  } else if (!(await migrationsAtHead(app))) {
    reasons.push('migrations_pending');
  }
  if (!(await storageWritable(app))) reasons.push('storage_not_writable');
  return reasons;
};
