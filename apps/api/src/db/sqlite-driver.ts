import { createRequire } from 'node:module';

import type SQLite from 'better-sqlite3';

// Two majors of the SQLite driver, picked by the running Node (issue 32). better-sqlite3 13 is on
// Node-API with its prebuilds in the package: it runs on Node 22 and 24 but crashes on Node 20.
// better-sqlite3 12 (the npm alias `better-sqlite3-12`, built from source at install) runs on
// Node 20 but, built against the headers of Node 24.19 or later, aborts during GC
// (nodejs/node#65446). See docs/decisions.md, "Both SQLite drivers".

/** The first Node major that loads better-sqlite3 13; older ones load the 12 alias. */
export const SQLITE_DRIVER_13_FROM_NODE_MAJOR = 22;

export type SqliteDriver = typeof SQLite;

/** The package name of the driver for a Node version (`process.versions.node` by default). */
export const sqliteDriverPackage = (nodeVersion: string = process.versions.node): string =>
  Number.parseInt(nodeVersion, 10) >= SQLITE_DRIVER_13_FROM_NODE_MAJOR
    ? 'better-sqlite3'
    : 'better-sqlite3-12';

let loaded: SqliteDriver | undefined;

/**
 * The SQLite driver for this Node, loaded on first use (a server on PostgreSQL never loads it).
 * better-sqlite3-12 is an optional dependency, so an install on Node 22+ does not fail when it
 * cannot be compiled there; on Node 20 its absence is reported with what to do.
 */
export const loadSqliteDriver = (): SqliteDriver => {
  if (loaded) return loaded;
  const name = sqliteDriverPackage();
  try {
    loaded = createRequire(import.meta.url)(name) as SqliteDriver;
  } catch (error) {
    throw new Error(
      `The SQLite driver ${name} for Node ${process.versions.node} could not be loaded: run ` +
        '`npm install` again on this Node version, or set DATABASE_URL to use PostgreSQL.',
      { cause: error },
    );
  }
  return loaded;
};
