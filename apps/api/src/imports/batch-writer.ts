import { sql } from 'kysely';
import type { Transaction } from 'kysely';

import type { Dialect } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { addImportedMembers } from '../learners/learners-lists-repository.ts';
import {
  insertNewLearners,
  updateLearnersByUuid,
  upsertLearners,
} from '../learners/learners-repository.ts';
import { bumpLearnersVersion } from '../learners/learners-version.ts';
import type { PlannedBatch } from './batch-plan.ts';

// The import's second step per batch: write a planned batch's learners and list memberships
// through the repositories, inside the transaction the job runner commits with the counters and
// the checkpoint.

/**
 * How a batch writes its new learners. `insert` (Postgres): a plain INSERT, cheaper than an
 * upsert (no speculative insertion). `upsert`: INSERT … ON CONFLICT (company, email), for
 * SQLite, and for a Postgres batch whose INSERT met an e-mail another request created after the
 * lookup (the batch is then rolled back and done again this way).
 */
export type WriteMode = 'insert' | 'upsert';

export type BatchTarget = { dialect: Dialect; companyUuid: string; listUuid: string | null };

/** The batch's learners and list memberships. */
export const writeBatch = async (
  trx: Transaction<Database>,
  { dialect, companyUuid, listUuid }: BatchTarget,
  planned: PlannedBatch,
  now: string,
  mode: WriteMode,
): Promise<void> => {
  const { creates, emailUpdates, phoneUpdates } = planned;
  // A copy: a batch done again must not keep the uuids of an attempt that was rolled back.
  const members = new Set(planned.members);
  let fresh: string[] = [];
  if (dialect === 'postgres') {
    // Do not wait for the disk at each batch's commit: see "Durability" in docs/imports.md.
    await sql`set local synchronous_commit = off`.execute(trx);
  }
  if (mode === 'insert') {
    await insertNewLearners(trx, creates, companyUuid, now);
    fresh = creates.map((row) => row.uuid);
    await upsertLearners(trx, dialect, emailUpdates, companyUuid, now, false);
  } else {
    const written = await upsertLearners(
      trx,
      dialect,
      [...creates, ...emailUpdates],
      companyUuid,
      now,
      listUuid !== null,
    );
    if (listUuid !== null) {
      // The uuid the database kept, also when another request created the e-mail first.
      const byEmail = new Map(written.map((row) => [row.email, row.uuid]));
      for (const { uuid, learner } of creates) {
        const kept = learner.email ? byEmail.get(learner.email) : uuid;
        if (kept) members.add(kept);
      }
    }
  }
  await updateLearnersByUuid(trx, dialect, phoneUpdates, now);
  if (listUuid !== null) {
    await addImportedMembers(trx, dialect, listUuid, { fresh, learners: members });
  }
  // Once per batch: the learners list's remembered totals and positions start afresh.
  await bumpLearnersVersion(trx, [companyUuid]);
};
