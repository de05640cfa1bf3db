import type { TConnectionProof, TConnectionProofKey, TProofOutcome } from '@ccp/schemas';

import { errorText } from '../connector.ts';

// What a connection test proved of the path a lesson takes, and what it could not (issue 29):
// each connector's `test` lists its steps; a step that failed is said with the ones before it.

export const proof = (
  key: TConnectionProofKey,
  outcome: TProofOutcome,
  detail?: string,
): TConnectionProof => ({ key, outcome, ...(detail ? { detail } : {}) });

/**
 * No connection test reaches a learner: "Send me a test lesson" does, on the administrator's own
 * account.
 */
export const LEARNER_REACH = proof('learner_reach', 'not_provable');

/** A test that failed at one step, with what it had proved before it. */
export class ConnectionTestFailure extends Error {
  readonly proofs: TConnectionProof[];
  constructor(message: string, proofs: TConnectionProof[]) {
    super(message);
    this.name = 'ConnectionTestFailure';
    this.proofs = proofs;
  }
}

/** Runs a step of a test; its failure carries the proofs so far and the failed step. */
export const step = async <T>(
  proved: TConnectionProof[],
  key: TConnectionProofKey,
  run: () => Promise<T>,
): Promise<T> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ConnectionTestFailure) throw error;
    throw new ConnectionTestFailure(errorText(error), [
      ...proved,
      proof(key, 'failed'),
      LEARNER_REACH,
    ]);
  }
};

/** The proofs a failed test carries (none when it failed before its first step). */
export const proofsOfFailure = (error: unknown): TConnectionProof[] =>
  error instanceof ConnectionTestFailure ? error.proofs : [];
