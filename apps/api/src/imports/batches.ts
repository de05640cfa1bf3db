import { Worker } from 'node:worker_threads';

import { ImportFileError } from './reader.ts';
import { preparedBatches } from './row-source.ts';
import type { PreparedRow, RowSourceParams } from './row-source.ts';
import type { RowWorkerMessage, RowWorkerRequest } from './row-worker.ts';

// Prepared batches for the import job. Reading and validating rows is about half the CPU of an
// import; a worker thread does it while the job's thread writes the previous batch. The worker
// is started with the job runner and kept (loading the TypeScript sources into a thread through
// tsx takes a second or two, too long to pay per import); a job uses it only when it is up and
// free, and otherwise prepares its batches on its own thread with the same code.

// Compiled (dist/server.js, `npm start`): the worker is dist/row-worker.js, started as it is.
// From source (tsx, vitest): row-worker.ts, loaded through tsx in the thread.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_ENTRY = new URL(COMPILED ? './row-worker.js' : './row-worker.ts', import.meta.url);
const BOOTSTRAP = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_ENTRY.href)}, ${JSON.stringify(import.meta.url)}));`;
const startWorker = () =>
  COMPILED ? new Worker(WORKER_ENTRY) : new Worker(BOOTSTRAP, { eval: true });

class RowWorker {
  readonly ready: Promise<void>;
  isReady = false;
  busy = false;
  dead = false;
  private readonly worker: Worker;
  private readonly routes = new Map<number, (message: RowWorkerMessage | Error) => void>();
  private nextId = 0;

  constructor() {
    this.worker = startWorker();
    // The worker never keeps the process alive on its own.
    this.worker.unref();
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // Nobody may be waiting for readiness: a failed start is not an unhandled rejection.
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: RowWorkerMessage) => {
      if (message.type === 'ready') {
        this.isReady = true;
        markReady();
        return;
      }
      this.routes.get(message.id)?.(message);
    });
    const fail = (error: Error) => {
      this.dead = true;
      markFailed(error);
      for (const route of this.routes.values()) route(error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the import worker stopped (exit ${code})`)));
  }

  private send(request: RowWorkerRequest) {
    if (!this.dead) this.worker.postMessage(request);
  }

  async *run(params: RowSourceParams): AsyncGenerator<PreparedRow[]> {
    this.busy = true;
    const id = (this.nextId += 1);
    const inbox: (RowWorkerMessage | Error)[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    this.routes.set(id, (message) => {
      inbox.push(message);
      wake?.();
    });
    try {
      this.send({ type: 'start', id, params });
      for (;;) {
        while (inbox.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
        }
        const message = inbox.shift()!;
        if (message instanceof Error) throw message;
        if (message.type === 'end') {
          finished = true;
          return;
        }
        if (message.type === 'error') {
          finished = true;
          throw message.fileError
            ? new ImportFileError(message.message)
            : new Error(message.message);
        }
        if (message.type === 'batch') {
          this.send({ type: 'next', id });
          yield message.rows;
        }
      }
    } finally {
      // Stopped early (the job failed, was canceled or the server is stopping): free the worker.
      if (!finished) this.send({ type: 'cancel', id });
      this.routes.delete(id);
      this.busy = false;
    }
  }

  terminate() {
    this.dead = true;
    return this.worker.terminate();
  }
}

let shared: RowWorker | null = null;
let workerRuns = 0;

/** How many imports the worker thread has prepared rows for (since the process started). */
export const importWorkerRuns = (): number => workerRuns;

/**
 * Starts the import worker if it is not running; resolves true once it is ready, false if it
 * could not start (imports then run on the job's thread).
 */
export const warmUpImportWorker = (): Promise<boolean> => {
  if (!shared || shared.dead) shared = new RowWorker();
  return shared.ready.then(
    () => true,
    () => false,
  );
};

/** Stops the import worker now, even while an import uses it (that import then fails). */
export const stopImportWorker = async (): Promise<void> => {
  const worker = shared;
  shared = null;
  await worker?.terminate();
};

// Runners hold the worker while they run: several runners in one process (tests, tools) share
// it, and it stops with the last of them.
let holders = 0;

/**
 * A runner starts: start the worker if needed. Compiled, the worker starts in a few tens of
 * milliseconds, so it waits for the first import instead (an idle server does not carry a
 * second V8 heap).
 */
export const holdImportWorker = (): Promise<boolean> => {
  holders += 1;
  return COMPILED ? Promise.resolve(true) : warmUpImportWorker();
};

/** A runner stops: stop the worker if no other runner holds it. */
export const releaseImportWorker = async (): Promise<void> => {
  holders = Math.max(0, holders - 1);
  if (holders === 0) await stopImportWorker();
};

/** Whether the next import would prepare its rows in the worker thread. */
export const importWorkerAvailable = (): boolean =>
  shared !== null && shared.isReady && !shared.busy && !shared.dead;

/** The prepared batches of an import file: from the worker when it is free, else on this thread. */
export async function* importBatches(params: RowSourceParams): AsyncGenerator<PreparedRow[]> {
  if (COMPILED && holders > 0 && (!shared || shared.dead)) await warmUpImportWorker();
  const worker = shared;
  if (worker && importWorkerAvailable()) {
    workerRuns += 1;
    yield* worker.run(params);
    return;
  }
  yield* preparedBatches(params);
}
