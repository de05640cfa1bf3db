import { parentPort } from 'node:worker_threads';

import { gcEveryRows } from '../lib/gc.ts';
import { ImportFileError } from './reader.ts';
import { preparedBatches } from './row-source.ts';
import type { PreparedRow, RowSourceParams } from './row-source.ts';

// Worker thread entry (see batches.ts). It stays up between imports: the job's thread sends
// `start` with a file to read, then `next` for each batch it took (the worker keeps at most two
// batches ahead), or `cancel`. One file at a time.

export type RowWorkerRequest =
  | { type: 'start'; id: number; params: RowSourceParams }
  | { type: 'next'; id: number }
  | { type: 'cancel'; id: number };

export type RowWorkerMessage =
  | { type: 'ready' }
  | { type: 'batch'; id: number; rows: PreparedRow[] }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; message: string; fileError: boolean };

type Current = { id: number; credits: number; canceled: boolean; wake: (() => void) | null };

const port = parentPort;
if (port) {
  let current: Current | null = null;
  const send = (message: RowWorkerMessage) => port.postMessage(message);

  const run = async (id: number, params: RowSourceParams) => {
    const job: Current = { id, credits: 2, canceled: false, wake: null };
    current = job;
    // The rows read and sent are garbage once posted: collected every IMPORT_GC_ROWS (lib/gc.ts).
    const collect = gcEveryRows();
    try {
      for await (const rows of preparedBatches(params)) {
        while (job.credits === 0 && !job.canceled) {
          await new Promise<void>((resolve) => {
            job.wake = resolve;
          });
        }
        if (job.canceled) break;
        job.credits -= 1;
        send({ type: 'batch', id, rows });
        collect(rows.length);
      }
      if (!job.canceled) send({ type: 'end', id });
    } catch (error) {
      if (!job.canceled) {
        send({
          type: 'error',
          id,
          message: error instanceof Error ? error.message : String(error),
          fileError: error instanceof ImportFileError,
        });
      }
    } finally {
      if (current === job) current = null;
    }
  };

  port.on('message', (request: RowWorkerRequest) => {
    if (request.type === 'start') {
      void run(request.id, request.params);
      return;
    }
    const job = current;
    if (!job || job.id !== request.id) return;
    if (request.type === 'next') job.credits += 1;
    else job.canceled = true;
    job.wake?.();
    job.wake = null;
  });
  send({ type: 'ready' });
}
