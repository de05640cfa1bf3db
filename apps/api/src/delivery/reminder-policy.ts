import { reminderPolicyOf } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import { chunks } from '../lib/chunks.ts';
import { deliveriesRepository } from './deliveries-repository.ts';
import type { DueReminders, ReminderRow } from './deliveries-repository.ts';
import { parseDistribution } from './enrolment.ts';

// Which reminders are due (issue 28). Each course says how many reminders an unread lesson gets
// and how many hours apart (the first that long after delivery); the scheduler's reminders
// Drain asks, per policy in use, for the lessons whose next reminder has come. Courses are
// grouped by policy, so a tick costs one query per policy in use, not one per course.

const HOUR_MS = 60 * 60 * 1000;

/** The courses that may remind, grouped by their policy, each group with its cutoff. */
const dueGroups = async (db: Db, now: Date): Promise<DueReminders[]> => {
  const groups = new Map<string, DueReminders>();
  for (const course of await deliveriesRepository.remindingCourses(db)) {
    const policy = reminderPolicyOf(parseDistribution(course.distribution));
    if (policy.reminder_count === 0) continue;
    const key = `${policy.reminder_count}/${policy.reminder_interval_hours}`;
    const group = groups.get(key);
    if (group) group.courses.push(course.uuid);
    else
      groups.set(key, {
        courses: [course.uuid],
        count: policy.reminder_count,
        cutoff: new Date(now.getTime() - policy.reminder_interval_hours * HOUR_MS).toISOString(),
      });
  }
  return [...groups.values()].flatMap((group) =>
    chunks(group.courses).map((courses) => ({ ...group, courses })),
  );
};

/**
 * The reminders Drain's `select`: the due lessons of each policy in turn, `limit` at a time. A
 * group is left once it answers fewer than asked; rows claimed meanwhile no longer match it.
 */
export const dueReminders = (db: Db, now: Date): ((limit: number) => Promise<ReminderRow[]>) => {
  let groups: Promise<DueReminders[]> | null = null;
  let index = 0;
  return async (limit) => {
    groups ??= dueGroups(db, now);
    const list = await groups;
    const rows: ReminderRow[] = [];
    while (index < list.length && rows.length < limit) {
      const wanted = limit - rows.length;
      const found = await deliveriesRepository.unreadLessons(db, list[index]!, wanted);
      rows.push(...found);
      if (found.length < wanted) index += 1;
    }
    return rows;
  };
};
