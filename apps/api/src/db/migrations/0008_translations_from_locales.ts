import type { Kysely } from 'kysely';

import * as seeded from './0003_translations.ts';

// GET /api/v1/translations answers the `translations` group of locales/server/*.json, the one
// home of every server text (kept complete in en, it and de by the locale parity test), so the
// table 0003 filled has no reader left. 0003 stays as it ran; down brings its table and rows back.

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('translations').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('translations')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('translations_locale_key_uq', ['locale', 'key'])
    .execute();
  await seeded.up(db);
};
