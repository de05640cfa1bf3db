import { readFileSync } from 'node:fs';
import path from 'node:path';

import { configDir } from './config.ts';
import { writeFileAtomic } from './credentials-store.ts';
import type { CliIo } from './io.ts';

// `<config>/imports.json`: the imports started on this machine, by the file's content and the
// options, so a re-run re-attaches to a running job or reports a finished one, and `ccp learners
// import status|cancel` without a job id find the last one. Token runs (CI) keep it in memory only;
// a config dir that cannot be written (HOME=/dev/null, a read-only home) is skipped silently:
// the import works the same, it only cannot be found again by a later run.

export type ImportStateEntry = {
  /** Null between the upload's start and its answer. */
  job: string | null;
  file: string;
  file_name: string;
  started_at: string;
  api_url?: string;
  /** Set once ccp saw the job end. */
  finished?: boolean;
};

type ImportState = Record<string, ImportStateEntry>;

/** Enough for any one person's recent imports; the oldest are dropped beyond it. */
const KEPT_ENTRIES = 200;

export type ImportStateStore = {
  get: (key: string) => ImportStateEntry | undefined;
  set: (key: string, entry: ImportStateEntry) => void;
  /** The newest entry with a job for this API URL (for status/cancel without a job id). */
  latest: (apiUrl: string) => ImportStateEntry | undefined;
};

export const importStateFile = (io: CliIo): string => path.join(configDir(io), 'imports.json');

/** The store on disk when `persist` (a signed-in user), else in memory (CCP_TOKEN). */
export const importStateStore = (
  io: CliIo,
  { persist }: { persist: boolean },
): ImportStateStore => {
  const file = persist ? importStateFile(io) : null;
  let memory: ImportState = {};
  let writable = persist;

  const read = (): ImportState => {
    if (!file) return memory;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ImportState;
    } catch {
      return memory;
    }
  };

  const write = (state: ImportState) => {
    const kept = Object.fromEntries(
      Object.entries(state)
        .sort(([, a], [, b]) => b.started_at.localeCompare(a.started_at))
        .slice(0, KEPT_ENTRIES),
    );
    memory = kept;
    if (!file || !writable) return;
    try {
      writeFileAtomic(file, `${JSON.stringify(kept, null, 2)}\n`);
    } catch {
      // ENOTDIR, EACCES, EROFS: not a reason to fail an import; stop trying for this run.
      writable = false;
    }
  };

  return {
    get: (key) => read()[key],
    set: (key, entry) => {
      const state = read();
      state[key] = entry;
      write(state);
    },
    latest: (apiUrl) =>
      Object.values(read())
        .filter((entry) => entry.job !== null && entry.api_url === apiUrl)
        .sort((a, b) => b.started_at.localeCompare(a.started_at))[0],
  };
};
