import type { Kysely } from 'kysely';

// A refresh token presented again within a few seconds of its rotation answers the pair it was
// rotated into (lib/tokens.ts, REFRESH_REUSE_GRACE_SECONDS): the answer to the first call may
// have been lost. Tokens are stored hashed, so the spent row keeps the random seed from which
// that pair was derived (with the spent token itself, which only its holder has); null while
// the token is unspent.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('auth_tokens').addColumn('successor_seed', 'text').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('auth_tokens').dropColumn('successor_seed').execute();
};
