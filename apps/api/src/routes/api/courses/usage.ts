import type { Db } from '../../../db/index.ts';

// The `lessons` plan function counts lesson days created in the current calendar month (UTC):
// a course day counts in the month its first lesson row was created, so translating a day into
// another language is not a new lesson.

/** The first instant of the calendar month (UTC) of `now`, as an ISO string. */
export const monthStartIso = (now: Date): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

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

/**
 * Lesson days of the company's courses first created since `sinceIso`, optionally leaving one
 * course out (the one being saved, whose days the caller counts from the new body).
 */
export const lessonDaysCreatedSince = async (
  db: Db,
  companyUuid: string,
  sinceIso: string,
  excludeCourseUuid?: string,
): Promise<number> => {
  let query = db
    .selectFrom('lessons')
    .innerJoin('courses', 'courses.uuid', 'lessons.course_uuid')
    .select(['lessons.course_uuid', 'lessons.day'])
    .where('courses.company_uuid', '=', companyUuid)
    .groupBy(['lessons.course_uuid', 'lessons.day'])
    .having((eb) => eb.fn.min('lessons.created_at'), '>=', sinceIso);
  if (excludeCourseUuid) query = query.where('courses.uuid', '!=', excludeCourseUuid);
  const rows = await query.execute();
  return rows.length;
};
