import type { TLearnerInput } from '@ccp/schemas';

import type { Db, Dialect } from '../db/index.ts';
import type { LearnerWrite } from '../learners/learners-repository.ts';
import type { ErrorRow } from './error-report.ts';
import { actionFor, findExisting } from './existing.ts';
import type { PreparedRow } from './row-source.ts';
import { newTimeOrderedUuid } from './uuid7.ts';

// The import's first step per batch: look its learners up and decide each row. Reads only;
// the batch writer applies the plan.

export type Counters = {
  processed_rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
};

export const addCounters = (a: Counters, b: Counters): Counters => ({
  processed_rows: a.processed_rows + b.processed_rows,
  created: a.created + b.created,
  updated: a.updated + b.updated,
  skipped: a.skipped + b.skipped,
  failed: a.failed + b.failed,
});

/** A batch looked up and sorted into what to write; nothing of it is written yet. */
export type PlannedBatch = {
  last: PreparedRow;
  /** Rows that failed, and rows stored with a warning, in file order: the report's lines. */
  failures: ErrorRow[];
  /** How many of `failures` were stored with a warning. */
  warned: number;
  /** Rows no learner matched, each with a new uuid. */
  creates: LearnerWrite[];
  /** Rows matched by e-mail, with the learner's uuid. */
  emailUpdates: LearnerWrite[];
  /** Rows matched by phone (no e-mail), with the learner's uuid. */
  phoneUpdates: LearnerWrite[];
  /** Matched learners joining the target list (updated or skipped). */
  members: Set<string>;
  delta: Counters;
  /** Learners the batch adds to the active ones (created and restored). */
  added: number;
};

/** Looks the batch's learners up in the company and decides each row. */
export const planBatch = async (
  db: Db,
  dialect: Dialect,
  companyUuid: string,
  batch: PreparedRow[],
): Promise<PlannedBatch> => {
  const failures: ErrorRow[] = [];
  const valid: { learner: TLearnerInput; key: string }[] = [];
  let warned = 0;
  for (const row of batch) {
    if (row.ok) {
      valid.push({ learner: row.learner, key: row.key });
      if (row.warned) {
        warned += 1;
        failures.push({ line: row.line, ...row.warned });
      }
    } else failures.push({ line: row.line, reasons: row.reasons, cells: row.cells });
  }
  const existing = await findExisting(
    db,
    dialect,
    companyUuid,
    valid.map((row) => row.key),
  );
  const planned: PlannedBatch = {
    last: batch[batch.length - 1]!,
    failures,
    warned,
    creates: [],
    emailUpdates: [],
    phoneUpdates: [],
    members: new Set<string>(),
    delta: {
      processed_rows: batch.length,
      created: 0,
      updated: 0,
      skipped: 0,
      failed: failures.length - warned,
    },
    added: 0,
  };
  const { delta, members } = planned;
  for (const { learner, key } of valid) {
    const match = existing.get(key);
    const action = actionFor(match, learner);
    if (action === 'create') {
      delta.created += 1;
      planned.added += 1;
      planned.creates.push({ uuid: newTimeOrderedUuid(), learner });
      continue;
    }
    if (!match) continue;
    if (action === 'skip') {
      delta.skipped += 1;
      members.add(match.uuid);
      continue;
    }
    delta.updated += 1;
    if (action === 'restore') planned.added += 1;
    members.add(match.uuid);
    if (learner.email) planned.emailUpdates.push({ uuid: match.uuid, learner });
    else planned.phoneUpdates.push({ uuid: match.uuid, learner });
  }
  return planned;
};
