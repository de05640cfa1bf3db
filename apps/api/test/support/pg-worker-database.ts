// On PostgreSQL each test worker gets a database of its own (<database>_w<pool id>), in which its
// files make their schemas as before. With one database for all, two files running side by side
// broke each other's migrations: Kysely's migrator lists the tables of every schema it may use
// (`has_schema_privilege(nspname, …)`), and a schema another file dropped meanwhile fails that
// list ("schema … does not exist"). Spawned servers inherit the rewritten URL.

const base = process.env.CCP_TEST_DATABASE_URL_BASE ?? process.env.CCP_TEST_DATABASE_URL;
const poolId = process.env.VITEST_POOL_ID ?? '1';

if (base && !process.env.CCP_TEST_DATABASE_URL_BASE) {
  const { sql } = await import('kysely');
  const { createDatabase } = await import('../../src/db/index.ts');
  const url = new URL(base);
  const name = `${url.pathname.slice(1)}_w${poolId}`;
  const admin = createDatabase({ dialect: 'postgres', url: base });
  // Whatever an earlier run left in it goes: the worker starts from an empty database.
  await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
  await sql`create database ${sql.id(name)}`.execute(admin.db);
  await admin.close();
  url.pathname = `/${name}`;
  process.env.CCP_TEST_DATABASE_URL_BASE = base;
  process.env.CCP_TEST_DATABASE_URL = url.toString();
}

// A module (its top-level awaits need one), though it exports nothing.
export {};
