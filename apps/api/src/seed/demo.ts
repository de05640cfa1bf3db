import type { Db } from '../db/index.ts';

export type SeedOptions = { totpSecret: string; now: Date };
export type SeedSummary = {
  accounts: { email: string; note: string }[];
  password: string;
  totpSecret: string;
};

/** Seeds the demo organisation into an empty database (placeholder until the seed slice lands). */
export const seedDemo = async (_db: Db, options: SeedOptions): Promise<SeedSummary> => ({
  accounts: [],
  password: 'ChangeMe-2026!',
  totpSecret: options.totpSecret,
});

/** True when no company exists yet. */
export const isEmptyDatabase = async (db: Db): Promise<boolean> =>
  (await db.selectFrom('companies').select('uuid').limit(1).executeTakeFirst()) === undefined;
