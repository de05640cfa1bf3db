import type { Db } from '../../../db/index.ts';

// The `lessons` plan function counts lesson days created in the current calendar month (UTC):
// a course day counts in the month its first lesson row was created, so translating a day into
// another language is not a new lesson.

/** First-creation time of each lesson day of a course, keyed by day. */
export const lessonDayStarts = async (db: Db, courseUuid: string): Promise<Map<number, string>> => {
  const rows = await db
    .selectFrom('lessons')
    .select((eb) => ['day', eb.fn.min<string>('created_at').as('first_created_at')])
    .where('course_uuid', '=', courseUuid)
    .groupBy('day')
    .execute();
  return new Map(rows.map((row) => [Number(row.day), row.first_created_at]));
};
