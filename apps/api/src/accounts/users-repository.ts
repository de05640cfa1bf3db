import { DEFAULT_LOCALE, LOCALES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import { isoNow } from '../lib/clock.ts';
import { hashPassword } from '../lib/passwords.ts';
import { deleteRecoveryCodes } from './recovery-codes.ts';

type App = Pick<FastifyInstance, 'db' | 'clock'>;

export const localeOf = (value: string): TLocale =>
  (LOCALES as readonly string[]).includes(value) ? (value as TLocale) : DEFAULT_LOCALE;

export const findUserByEmail = (app: App, email: string) =>
  app.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();

export const setPassword = async (app: App, userUuid: string, password: string) => {
  await app.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), updated_at: isoNow(app.clock) })
    .where('uuid', '=', userUuid)
    .execute();
};

/** Turns a user's 2FA off (they set it up again at the next sign-in) and ends their codes. */
export const resetTwoFactor = async (app: App, userUuid: string): Promise<void> => {
  await app.db
    .updateTable('users')
    .set({
      is_2fa_enabled: 0,
      totp_secret: null,
      totp_pending_secret: null,
      totp_last_step: null,
      updated_at: app.clock.now().toISOString(),
    })
    .where('uuid', '=', userUuid)
    .execute();
  await deleteRecoveryCodes(app, userUuid);
};
