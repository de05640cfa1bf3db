import { existsSync } from 'node:fs';
import path from 'node:path';

import type { TImportJob } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { purgeJobReports } from '../../src/jobs/purge.ts';
import { DAY_MS } from '../../src/lib/clock.ts';
import { HEADER, csv, importFile } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser, signIn } from '../helper.ts';

// Error reports are kept 30 days after their import ends, then the purge deletes them and the
// report call answers 404 saying so.

const MINUTE_MS = 60_000;

describe('bulk learner import: error report retention', async () => {
  const app = await buildTestApp();
  const { user, headers } = await createSignedInUser(app);
  const start = app.clock.now().getTime();
  // Tokens expire: sign in again at the clock's time after moving it.
  const headersNow = async () => ({
    authorization: `Bearer ${(await signIn(app, user)).access_token}`,
  });

  const withFailures = await importFile(app, headers, {
    name: 'mixed.csv',
    content: csv([
      HEADER,
      ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
      ['R2', 'D2', 'not-an-email', '', 'slack', 'en'],
    ]),
  });
  const clean = await importFile(app, headers, {
    name: 'clean.csv',
    content: csv([HEADER, ['Grace', 'Hopper', 'grace@example.test', '', 'slack', 'en']]),
  });
  // Ten days later, another report (kept ten days longer than the first).
  app.testClock.set(new Date(start + 10 * DAY_MS));
  const later = await importFile(app, await headersNow(), {
    name: 'later.csv',
    content: csv([HEADER, ['Bad', 'Row', 'bad', '', 'slack', 'en']]),
  });

  // The report's segments live in a folder of the file store (imports/error-report.ts).
  const reportFile = (uuid: string) => path.join(app.dataDir, 'imports', `${uuid}.errors`);
  const getReport = async (uuid: string) =>
    call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${uuid}/errors`,
      headers: await headersNow(),
    });
  const getJob = async (uuid: string): Promise<TImportJob> => {
    const response = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${uuid}`,
      headers: await headersNow(),
    });
    return (response.json as { data: TImportJob }).data;
  };

  it('keeps a report for 30 days after its import ended', async () => {
    expect(withFailures).toMatchObject({ status: 'completed', failed: 1 });
    app.testClock.set(new Date(start + 30 * DAY_MS));
    expect(await purgeJobReports(app)).toBe(0);
    expect(existsSync(reportFile(withFailures.uuid))).toBe(true);
    const report = await getReport(withFailures.uuid);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('not-an-email');
  });

  it('deletes it one minute later; the call then answers 404 saying why', async () => {
    app.testClock.set(new Date(start + 30 * DAY_MS + MINUTE_MS));
    expect(await purgeJobReports(app)).toBe(1);
    expect(existsSync(reportFile(withFailures.uuid))).toBe(false);

    const report = await getReport(withFailures.uuid);
    expect(report.statusCode).toBe(404);
    expect(report.json).toEqual({
      error: {
        status: 404,
        code: 'NOT_FOUND',
        message:
          'The error report of this import was deleted: reports are kept for 30 days after the import ends.',
      },
    });
    // The job and its counts stay; only the link is gone.
    expect(await getJob(withFailures.uuid)).toMatchObject({
      status: 'completed',
      created: 1,
      failed: 1,
      error_report_url: null,
    });
  });

  it('leaves the younger report, and an import without failures still answers its header', async () => {
    expect(existsSync(reportFile(later.uuid))).toBe(true);
    expect((await getReport(later.uuid)).statusCode).toBe(200);
    expect(await getJob(later.uuid)).toMatchObject({
      error_report_url: `/api/v1/learners/imports/${later.uuid}/errors`,
    });
    const header = await getReport(clean.uuid);
    expect(header.statusCode).toBe(200);
    expect(header.body).toBe(
      '\ufeffline,errors,first_name,last_name,email,phone,channels,locale\r\n',
    );
  });

  it('deletes the younger report once its own 30 days are over, and nothing twice', async () => {
    app.testClock.set(new Date(start + 40 * DAY_MS + MINUTE_MS));
    expect(await purgeJobReports(app)).toBe(1);
    expect(existsSync(reportFile(later.uuid))).toBe(false);
    expect((await getReport(later.uuid)).statusCode).toBe(404);
    expect(await purgeJobReports(app)).toBe(0);
  });
});
