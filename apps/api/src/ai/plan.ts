import type { TAiImportFields } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import { assertWithinPlan } from '../lib/plan-limits.ts';
import { countLessonDays, monthBounds, usageOf } from '../lib/usage.ts';

// The plan of an AI import (spec §6): one `a-i-transformer` use and the lessons it writes. The
// upload is accepted under the company's lock counting the imports still queued or running as
// used, so parallel uploads cannot all pass a plan with one use left; the draft is stored under
// the same lock after counting again, so nothing stored ever passes the plan (issue 30).

/** The job kind of an AI import (jobs table). */
export const AI_IMPORT_KIND = 'ai-import';

/** Uses and lesson days held by the company's AI imports not finished yet. */
const pendingImports = async (db: Db, companyUuid: string) => {
  const rows = await db
    .selectFrom('jobs')
    .select('options')
    .where('company_uuid', '=', companyUuid)
    .where('kind', '=', AI_IMPORT_KIND)
    .where('status', 'in', ['queued', 'running'])
    .execute();
  const lessons = rows.reduce((sum, row) => {
    const options = JSON.parse(row.options) as { fields?: Partial<TAiImportFields> };
    return sum + (options.fields?.number_of_lessons ?? 0);
  }, 0);
  return { uses: rows.length, lessons };
};

/**
 * 402 when one more import of `lessons` days would pass the plan this month. `countPending`:
 * imports queued or running count as used (at the upload; not when a running import stores its
 * own draft). Run under the company's lock.
 */
export const assertAiImportWithinPlan = async (
  db: Db,
  companyUuid: string,
  { now, lessons, countPending }: { now: Date; lessons: number; countPending: boolean },
): Promise<void> => {
  const pending = countPending ? await pendingImports(db, companyUuid) : { uses: 0, lessons: 0 };
  const used = await usageOf(db, companyUuid, 'a-i-transformer', now);
  await assertWithinPlan(db, companyUuid, 'a-i-transformer', used + pending.uses + 1);
  const days = await countLessonDays(db, companyUuid, monthBounds(now));
  await assertWithinPlan(db, companyUuid, 'lessons', days + pending.lessons + lessons);
};
