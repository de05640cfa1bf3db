import { sql } from 'kysely';
import type { Kysely } from 'kysely';

import {
  createAnalyticsTriggers,
  dropAnalyticsTriggers,
  rebuildAnalyticsAggregates,
} from './0006_analytics.ts';
import { rebuildRetentionAggregates } from './0040_retention.ts';

// Issue 25 (the delivery bench): a lesson the scheduler holds (`sending`, a few milliseconds
// between its claim and the provider's answer) no longer counts as sent until it settles, so the
// claim fires no analytics trigger. The triggers are made anew from 0006's definitions; the
// aggregates are recomputed only when a send is held right now (otherwise nothing they hold
// changes meaning).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  const held = await sql<{ uuid: string }>`
    SELECT uuid FROM lesson_deliveries WHERE status = 'sending' LIMIT 1`.execute(db);
  if (held.rows.length > 0) {
    await rebuildAnalyticsAggregates(db);
    // The enrolment rows were written afresh: their retention columns (0040) with them.
    await rebuildRetentionAggregates(db);
    return;
  }
  await dropAnalyticsTriggers(db);
  await createAnalyticsTriggers(db);
};

// The earlier definitions are 0006's as it was; going back keeps today's, which count the same
// for every settled send.
export const down = async (): Promise<void> => {};
