import type { Db } from '../db/index.ts';

// Apart from the demo's content (demo.ts), so a server that starts on a seeded database checks
// this without loading the courses it would seed.

/** True when no company exists yet. */
export const isEmptyDatabase = async (db: Db): Promise<boolean> =>
  (await db.selectFrom('companies').select('uuid').limit(1).executeTakeFirst()) === undefined;
