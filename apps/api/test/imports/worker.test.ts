import { afterAll, describe, expect, it } from 'vitest';

import {
  importWorkerAvailable,
  importWorkerRuns,
  stopImportWorker,
  warmUpImportWorker,
} from '../../src/imports/batches.ts';
import { drainJobs } from '../../src/jobs/runner.ts';
import { importFile, uploadImport } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// The worker thread that reads and validates rows gives the same import as the job's own thread,
// also when a job resumes from a checkpoint.

const FILE = (() => {
  const lines = ['first_name;last_name;email;phone;channels;locale'];
  for (let n = 1; n <= 2500; n += 1) {
    if (n % 500 === 0) lines.push(`Bad;Row;bad-${n};;slack;en`);
    else if (n === 1800) lines.push('Dup;Row;w1@example.test;;slack;en');
    else if (n % 700 === 0) lines.push(';;;;;');
    else lines.push(`Zoë;"Müller Jr";w${n}@example.test;;slack;it`);
  }
  return `${lines.join('\r\n')}\r\n`;
})();

describe('bulk learner import: the worker thread', async () => {
  const app = await buildTestApp();
  afterAll(() => stopImportWorker());

  const reportOf = async (headers: Record<string, string>, url: string | null) =>
    (await call(app, { method: 'GET', url: url ?? '', headers })).body;

  it('imports the same rows, counts and report as the job’s own thread', async () => {
    expect(await warmUpImportWorker()).toBe(true);
    expect(importWorkerAvailable()).toBe(true);
    const viaWorker = await createSignedInUser(app, { plan: 'enterprise' });
    const runs = importWorkerRuns();
    const workerJob = await importFile(app, viaWorker.headers, { name: 'w.csv', content: FILE });
    expect(importWorkerRuns()).toBe(runs + 1);

    await stopImportWorker();
    expect(importWorkerAvailable()).toBe(false);
    const inline = await createSignedInUser(app, { plan: 'enterprise' });
    const inlineJob = await importFile(app, inline.headers, { name: 'w.csv', content: FILE });
    expect(importWorkerRuns()).toBe(runs + 1);

    const counts = ({ total_rows, created, updated, skipped, failed }: typeof workerJob) => ({
      total_rows,
      created,
      updated,
      skipped,
      failed,
    });
    // 2,500 rows less 3 blank ones; 5 bad e-mails and one duplicate fail.
    expect(counts(workerJob)).toEqual({
      total_rows: 2497,
      created: 2491,
      updated: 0,
      skipped: 0,
      failed: 6,
    });
    expect(counts(inlineJob)).toEqual(counts(workerJob));
    const workerReport = await reportOf(viaWorker.headers, workerJob.error_report_url);
    expect(workerReport).toBe(await reportOf(inline.headers, inlineJob.error_report_url));
    expect(workerReport).toContain(
      '1801;email: The email is already on line 2 of this file.;Dup;Row;w1@example.test;;slack;en\r\n',
    );
  });

  it('resumes from a checkpoint in the worker: skipped rows still feed the duplicate check', async () => {
    expect(await warmUpImportWorker()).toBe(true);
    const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
    const upload = await uploadImport(app, headers, { name: 'resume.csv', content: FILE });
    // As if a run had committed the first 1,000 rows and crashed (their learners are not here,
    // so what the resumed run creates is exactly the rest).
    await app.db
      .updateTable('jobs')
      .set({ checkpoint: JSON.stringify({ row: 1000, line: 1001, error_bytes: 0 }) })
      .where('uuid', '=', upload.json.data.uuid)
      .execute();
    const runs = importWorkerRuns();
    await drainJobs(app);
    expect(importWorkerRuns()).toBe(runs + 1);
    const job = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${upload.json.data.uuid}`,
      headers,
    });
    // Data row 1,000 is line n = 1,001 (n = 700 is blank). After it: 1,497 rows, of which 3 bad
    // and the duplicate of n = 1.
    expect(job.json.data).toMatchObject({ processed_rows: 1497, created: 1493, failed: 4 });
    const learners = await app.db
      .selectFrom('learners')
      .select('email')
      .where('company_uuid', '=', company.uuid)
      .execute();
    const numbers = learners.map((row) => Number(row.email!.slice(1).split('@')[0]));
    expect(Math.min(...numbers)).toBe(1002);
    expect(learners).toHaveLength(1493);
  });
});
