import type { Kysely } from 'kysely';

// Issue 28, "The learner's hours": a learner's own time zone (null: the company's), and the
// company's delivery hours: its time zone (null: Europe/Rome, spec §9), quiet hours in the
// learner's local time and the country whose public holidays delay lessons (null: none). With
// every new column null, planning is what it was before.
const COMPANY_COLUMNS = ['time_zone', 'quiet_hours_start', 'quiet_hours_end', 'holiday_country'];

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('learners').addColumn('time_zone', 'text').execute();
  for (const column of COMPANY_COLUMNS) {
    await db.schema.alterTable('companies').addColumn(column, 'text').execute();
  }
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const column of COMPANY_COLUMNS.toReversed()) {
    await db.schema.alterTable('companies').dropColumn(column).execute();
  }
  await db.schema.alterTable('learners').dropColumn('time_zone').execute();
};
