import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type Pg from 'pg';

import { migrations } from './migrations/index.ts';
import { loadSqliteDriver } from './sqlite-driver.ts';
import type { Database } from './types.ts';

export type Dialect = 'sqlite' | 'postgres';

export type DatabaseConfig =
  { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; schema?: string };

export type Db = Kysely<Database>;

export type DatabaseHandle = { db: Db; dialect: Dialect; close: () => Promise<void> };

// The pg driver is loaded only by a server on Postgres (about 7 MB an SQLite server does not hold).
const loadPg = (): typeof Pg => {
  const pg = createRequire(import.meta.url)('pg') as typeof Pg;
  // Postgres returns bigint counts (COUNT(*)) as strings; parse them as numbers, they stay well below 2^53.
  pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));
  return pg;
};

export const createDatabase = (config: DatabaseConfig): DatabaseHandle => {
  if (config.dialect === 'postgres') {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (config.file !== ':memory:') mkdirSync(path.dirname(config.file), { recursive: true });
  const Driver = loadSqliteDriver();
  const sqlite = new Driver(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints every 16 MB of WAL instead of 4 MB: the scheduler commits once a lesson, and the
  // checkpoints were a fifth of that commit's time (the delivery bench, issue 25).
  sqlite.pragma(`wal_autocheckpoint = ${SQLITE_WAL_CHECKPOINT_PAGES}`);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
};

/** WAL pages (4 KB) written before SQLite checkpoints them into the database file. */
const SQLITE_WAL_CHECKPOINT_PAGES = 4000;

/** Prepared statements kept per SQL text (least recently used first out). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 for Kysely, with its prepared statements kept by SQL text. Kysely prepares every
 * query anew; for the short queries of a request that cost about as much as running them (a page
 * of 25 learners: a sixth of the request's CPU; most of the scheduler's per-lesson claim and
 * bookkeeping). A statement still being iterated (a stream) is not handed out twice.
 */
const withStatementCache = (sqlite: SQLite.Database) => {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string): SQLite.Statement => {
      const cached = statements.get(text);
      if (cached && !cached.busy) {
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = sqlite.prepare(text);
      if (cached) return statement;
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) {
        statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
};

/** The migrator of this database; one set of migrations serves both dialects. */
const migratorFor = async ({ db, dialect }: Pick<DatabaseHandle, 'db' | 'dialect'>) => {
  // On Postgres the migrator's own tables go in the current schema: without it, Kysely finds
  // them in any schema on the server and skips creating them in a fresh one.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema
      : undefined;
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
};

/** Brings the schema up to date. */
export const migrateToLatest = async (handle: Pick<DatabaseHandle, 'db' | 'dialect'>) => {
  const migrator = await migratorFor(handle);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
};

/** The names of the migrations this code has and the database has not run (readiness probe). */
export const pendingMigrations = async (
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
): Promise<string[]> => {
  const migrator = await migratorFor(handle);
  return (await migrator.getMigrations())
    .filter((migration) => migration.executedAt === undefined)
    .map((migration) => migration.name);
};

/** Builds a config from the environment: Postgres when DATABASE_URL is set, else SQLite under dataDir. */
export const databaseConfigFromEnv = (env: NodeJS.ProcessEnv, dataDir: string): DatabaseConfig => {
  const url = env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    return {
      dialect: 'postgres',
      url,
      ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}),
    };
  }
  return { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') };
};
