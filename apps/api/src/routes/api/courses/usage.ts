import type { ZCourseUpdateRequestSchema } from '@ccp/schemas';
import type { z } from 'zod';

import type { Db } from '../../../db/index.ts';
import type { CoursesTable } from '../../../db/types.ts';
import { assertWithinPlan } from '../../../lib/plan-limits.ts';
import { channelsInUse, channelsOf, countLessonDays, monthBounds } from '../../../lib/usage.ts';

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

/** 402 when `added` lesson days more this month would pass the plan (under the company's lock). */
export const assertLessonDaysFree = async (
  db: Db,
  companyUuid: string,
  now: Date,
  added: number,
): Promise<void> => {
  const used = await countLessonDays(db, companyUuid, monthBounds(now));
  await assertWithinPlan(db, companyUuid, 'lessons', used + added);
};

/**
 * 402 when bringing an archived course back would pass the plan: its days first created this
 * month count again, and so do channels no other course uses (under the company's lock).
 */
export const assertRestorable = async (db: Db, course: CoursesTable, now: Date): Promise<void> => {
  const { from, to } = monthBounds(now);
  const starts = [...(await lessonDayStarts(db, course.uuid)).values()];
  const thisMonth = starts.filter((start) => start >= from && start < to).length;
  if (thisMonth > 0) await assertLessonDaysFree(db, course.company_uuid, now, thisMonth);
  const inUse = await channelsInUse(db, course.company_uuid);
  const channels = channelsOf(course.distribution);
  if (channels.some((channel) => !inUse.has(channel))) {
    for (const channel of channels) inUse.add(channel);
    await assertWithinPlan(db, course.company_uuid, 'distribution-channels', inUse.size);
  }
};

/** Plan limits (spec §6) on what a full save sets; run under the company's lock. */
export const assertSaveWithinPlan = async (
  db: Db,
  {
    companyUuid,
    course,
    data,
    now,
  }: {
    companyUuid: string;
    course: CoursesTable;
    data: z.output<typeof ZCourseUpdateRequestSchema>;
    now: Date;
  },
): Promise<void> => {
  if (data.distribution) {
    const { channels, exclusion_days: exclusionDays } = data.distribution;
    if (channels.length > 0) {
      // The plan counts distinct channels across the company's courses, this one included.
      const inUse = await channelsInUse(db, companyUuid, course.uuid);
      for (const channel of channels) inUse.add(channel);
      await assertWithinPlan(db, companyUuid, 'distribution-channels', inUse.size);
    }
    if (exclusionDays.length > 0) {
      await assertWithinPlan(db, companyUuid, 'exclusion-days', 1);
    }
  }
  const month = monthBounds(now);
  const since = month.from;
  const starts = await lessonDayStarts(db, course.uuid);
  const days = [...new Set(data.lessons.map((lesson) => lesson.day))];
  const newDays = days.filter((day) => !starts.has(day));
  if (newDays.length > 0) {
    const others = await countLessonDays(db, companyUuid, {
      ...month,
      excludeCourseUuid: course.uuid,
    });
    const thisMonth = days.filter((day) => (starts.get(day) ?? since) >= since).length;
    await assertWithinPlan(db, companyUuid, 'lessons', others + thisMonth);
  }
};
