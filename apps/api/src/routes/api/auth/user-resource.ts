import { DEFAULT_LOCALE, LOCALES } from '@ccp/schemas';
import type { TLocale, TUser } from '@ccp/schemas';

import type { Db } from '../../../db/index.ts';
import { notFound } from '../../../lib/app-error.ts';

const isLocale = (value: string): value is TLocale =>
  (LOCALES as readonly string[]).includes(value);

/** The public view of a user (TUser): never the password hash or a TOTP secret. */
export const loadUser = async (db: Db, userUuid: string): Promise<TUser> => {
  const row = await db
    .selectFrom('users')
    .innerJoin('companies', 'companies.uuid', 'users.company_uuid')
    .select([
      'users.uuid',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.avatar',
      'users.locale',
      'users.is_admin',
      'users.is_2fa_enabled',
      'companies.uuid as company_uuid',
      'companies.name as company_name',
    ])
    .where('users.uuid', '=', userUuid)
    .executeTakeFirst();
  if (!row) throw notFound();
  return {
    uuid: row.uuid,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar: row.avatar,
    locale: isLocale(row.locale) ? row.locale : DEFAULT_LOCALE,
    is_admin: Number(row.is_admin) === 1,
    is_2fa_enabled: Number(row.is_2fa_enabled) === 1,
    company: { uuid: row.company_uuid, name: row.company_name },
  };
};
