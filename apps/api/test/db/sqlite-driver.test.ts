import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { sqliteDriverPackage } from '../../src/db/sqlite-driver.ts';
import { importFile } from '../fixtures/imports.ts';
import { buildTestApp, createSignedInUser, testDialect } from '../helper.ts';

// The SQLite driver this Node loads survives what crashed better-sqlite3 12 on Node 24.19+
// (issue 32): statements finalised by the garbage collector after a large import. CI runs this
// file on Node 20, 22 and 24.

const ROWS = 10_000;
const FILE = (() => {
  const lines = ['first_name;last_name;email;phone;channels;locale'];
  for (let n = 1; n <= ROWS; n += 1) lines.push(`Ada;Lovelace;gc${n}@example.test;;slack;en`);
  return `${lines.join('\r\n')}\r\n`;
})();

/** The collector, callable without starting Node with --expose-gc. */
const forceGc = (): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
};

describe('the SQLite driver for this Node', () => {
  it('is better-sqlite3 13 from Node 22 on and 12 on Node 20', () => {
    expect(sqliteDriverPackage('20.19.0')).toBe('better-sqlite3-12');
    expect(sqliteDriverPackage('22.13.0')).toBe('better-sqlite3');
    expect(sqliteDriverPackage('24.21.0')).toBe('better-sqlite3');
    const loaded = createRequire(import.meta.url)(`${sqliteDriverPackage()}/package.json`) as {
      version: string;
    };
    const major = Number.parseInt(process.versions.node, 10);
    expect(loaded.version.split('.')[0]).toBe(major >= 22 ? '13' : '12');
  });

  it.skipIf(testDialect() === 'postgres')(
    'imports 10,000 learners and keeps running while the collector frees statements',
    async () => {
      const app = await buildTestApp();
      const { headers } = await createSignedInUser(app, { plan: 'enterprise' });
      const job = await importFile(app, headers, { name: 'gc.csv', content: FILE });
      expect(job.created).toBe(ROWS);

      // 10,000 statements of distinct texts pass through the 500-statement cache, so the
      // collector finalises thousands of them, as in a busy server: between rounds the event loop
      // runs the collector's own tasks (where 12 built for Node 24.19+ aborted, outside any
      // JavaScript context), and a forced collection ends it.
      for (let round = 0; round < 50; round += 1) {
        for (let n = 0; n < 200; n += 1) {
          const tag = sql.raw(String(round * 200 + n));
          await sql`select count(*) as c from learners where ${tag} = ${tag}`.execute(app.db);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      forceGc()();
      const { count } = await app.db
        .selectFrom('learners')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(ROWS);
      await app.close();
    },
    120_000,
  );
});
