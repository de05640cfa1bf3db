import { randomInt } from 'node:crypto';

import { RECOVERY_CODE_COUNT } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import { isoNow } from '../lib/clock.ts';
import { hashToken, newUuid } from '../lib/ids.ts';

// 2FA recovery codes (issue 17): 10 one-time codes of 10 characters from 32 letters and digits
// (50 bits each), shown once and stored as SHA-256 hashes. A code is spent by a conditional
// update, so two requests with one code cannot both sign in.

type App = Pick<FastifyInstance, 'db' | 'clock'>;

// No 0/o or 1/l: codes are read off paper.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

const newCode = (): string =>
  Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** `abcde12345` as shown: `abcde-12345`. */
const shown = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

/** Replaces the user's codes with a new set; answers them as shown to the user. */
export const replaceRecoveryCodes = async (app: App, userUuid: string): Promise<string[]> => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const now = isoNow(app.clock);
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_uuid', '=', userUuid).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          uuid: newUuid(),
          user_uuid: userUuid,
          code_hash: hashToken(code),
          created_at: now,
          used_at: null,
        })),
      )
      .execute();
  });
  return codes.map(shown);
};

export const deleteRecoveryCodes = async (app: App, userUuid: string): Promise<void> => {
  await app.db.deleteFrom('recovery_codes').where('user_uuid', '=', userUuid).execute();
};

export const remainingRecoveryCodes = async (app: App, userUuid: string): Promise<number> => {
  const row = await app.db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_uuid', '=', userUuid)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** Spends a code (normalised: lower case, no dash); false when it is unknown or already used. */
export const spendRecoveryCode = async (
  app: App,
  userUuid: string,
  code: string,
): Promise<boolean> => {
  const spent = await app.db
    .updateTable('recovery_codes')
    .set({ used_at: isoNow(app.clock) })
    .where('user_uuid', '=', userUuid)
    .where('code_hash', '=', hashToken(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
};
