import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { openFileStore } from '../../src/storage/index.ts';
import { parseStorageUrl } from '../../src/storage/storage-config.ts';
import { analyticsCourse } from '../fixtures/analytics.ts';
import { multipart, pngImage } from '../fixtures/courses.ts';
import { HEADER, csv, importFile } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import { startFakeS3 } from '../fakes/s3.ts';

// With CCP_STORAGE_URL every kept file is an object in the bucket, and the server's own data
// dir keeps none: an import's upload and error report, a cover image, an export. The fake
// checks each request's SigV4 signature, so this is what a real bucket would accept.

const credentials = { accessKeyId: 'AKIDCCPAPP', secretAccessKey: 'ccp-app-secret' };
const s3 = await startFakeS3({ bucket: 'ccp-files', ...credentials });
afterAll(() => s3.close());

/** Files under a folder, recursively (folders left empty are fine). */
const filesUnder = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    : [];

describe('files in S3-compatible object storage', async () => {
  const storage = { ...parseStorageUrl(s3.storageUrl('ccp'), {}), credentials };
  const scratch = mkdtempSync(path.join(tmpdir(), 'ccp-s3-scratch-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const app = await buildTestApp({ files: openFileStore(storage, scratch) });
  const { company, headers } = await createSignedInUser(app);
  // Neither the data dir nor the scratch dir keeps a file once a request or job is done.
  const keptLocally = () => [
    ...filesUnder(app.dataDir).filter((file) => !/\.sqlite(-wal|-shm)?$/.test(file)),
    ...filesUnder(scratch),
  ];

  it('imports from the bucket and serves the error report kept there', async () => {
    const job = await importFile(app, headers, {
      name: 'team.csv',
      content: csv([
        HEADER,
        ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
        ['Grace', 'Hopper', 'not-an-email', '', 'slack', 'en'],
      ]),
    });
    expect(job).toMatchObject({ status: 'completed', created: 1, failed: 1 });
    const uploaded = s3.requests.find(
      (request) =>
        request.operation === 'PutObject' && request.key === `ccp/imports/${job.uuid}.csv`,
    );
    expect(uploaded?.status).toBe(200);
    // The upload is deleted once imported; the report stays, as segments.
    expect(s3.keys().filter((key) => key.includes(job.uuid))).toEqual([
      `ccp/imports/${job.uuid}.errors/0000000002.csv`,
    ]);
    const report = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${job.uuid}/errors`,
      headers,
    });
    expect(report.statusCode).toBe(200);
    expect(report.body).toBe(
      `\uFEFFline,errors,${HEADER.join(',')}\r\n3,email: The email must be valid.,Grace,Hopper,not-an-email,,slack,en\r\n`,
    );
    expect(keptLocally()).toEqual([]);
  });

  it('keeps a cover in the bucket and serves it from there', async () => {
    const png = pngImage({ width: 40, height: 30 });
    const body = multipart(
      { name: 'Negotiation', description: 'Ten minutes a day.' },
      { filename: 'cover.png', contentType: 'image/png', content: png },
    );
    const created = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const image: string = created.json.data.image;
    expect(s3.object(`ccp/${image.slice(1)}`)?.size).toBe(png.length);
    const served = await app.inject({ method: 'GET', url: image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect(keptLocally()).toEqual([]);
  });

  it('keeps an export in the bucket and downloads it from there', async () => {
    const course = await analyticsCourse(app, company, { name: 'Négociation 101', minutes: [5] });
    const created = await call(app, {
      method: 'POST',
      url: `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics`,
      headers,
    });
    expect(created.statusCode).toBe(201);
    const exportId: string = created.json.data.export_id;
    expect(s3.object(`ccp/exports/${exportId}.csv`)?.contentType).toBe('text/csv; charset=utf-8');
    const download = await call(app, {
      method: 'GET',
      url: `/api/v1/analytics/exports/${exportId}/download`,
      headers,
    });
    expect(download.statusCode).toBe(200);
    expect(Buffer.from(download.json.data.file_content, 'base64').toString('utf8')).toMatch(
      /^\uFEFFlearner_uuid,first_name,/,
    );
    expect(keptLocally()).toEqual([]);
  });
});
