import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { afterAll, describe, expect, it } from 'vitest';

import { createLocalFileStore, openFileStore } from '../../src/storage/index.ts';
import type { FileStore } from '../../src/storage/index.ts';
import { parseStorageUrl, storageConfigFromEnv } from '../../src/storage/storage-config.ts';
import { startFakeS3 } from '../fakes/s3.ts';

// The two file stores keep the same promises: what is put is read back whole or by range,
// staged files appear only once kept, folders list and delete, copies are independent. The S3
// store runs against a fake that checks every request's SigV4 signature as S3 does.

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const work = mkdtempSync(path.join(tmpdir(), 'ccp-file-store-'));
const credentials = { accessKeyId: 'AKIDCCPTEST', secretAccessKey: 'ccp-test-secret' };
// Pages of two keys, so listing a folder follows continuation tokens.
const s3 = await startFakeS3({ bucket: 'ccp-files', ...credentials, pageSize: 2 });
afterAll(async () => {
  await s3.close();
  rmSync(work, { recursive: true, force: true });
});

const s3Config = (secretAccessKey = credentials.secretAccessKey) => ({
  ...parseStorageUrl(s3.storageUrl('tenant-a'), {}),
  credentials: { ...credentials, secretAccessKey },
});

const stores: [string, FileStore, string][] = [
  ['local folder', createLocalFileStore(path.join(work, 'files')), path.join(work, 'files')],
  [
    'S3 bucket',
    openFileStore(s3Config(), path.join(work, 'scratch-s3')),
    path.join(work, 'scratch-s3'),
  ],
];

describe.each(stores)('file store: %s', (_name, store, scratch) => {
  it('keeps, reads, ranges, copies, lists and deletes files', async () => {
    await store.check();
    await store.putBytes('covers/a.svg', '<svg/>', 'image/svg+xml');
    expect(await text((await store.read('covers/a.svg'))!.stream)).toBe('<svg/>');
    expect(await store.read('covers/missing.svg')).toBeNull();
    expect(await store.size('covers/missing.svg')).toBeNull();

    // A staged file is stored only once kept.
    const staged = await store.stage('imports/job.csv');
    writeFileSync(staged.path, 'email\nada@example.test\n'.repeat(1000));
    expect(await store.size('imports/job.csv')).toBeNull();
    await staged.keep('text/csv');
    expect(await store.size('imports/job.csv')).toBe(23_000);
    const range = (await store.read('imports/job.csv', { start: 6, end: 22 }))!;
    expect(range.size).toBe(17);
    expect(await text(range.stream)).toBe('ada@example.test\n');

    const dropped = await store.stage('imports/dropped.csv');
    writeFileSync(dropped.path, 'x');
    await dropped.discard();
    expect(existsSync(dropped.path)).toBe(false);

    const copy = await store.localCopy('imports/job.csv');
    expect(readFileSync(copy!.path, 'utf8')).toBe('email\nada@example.test\n'.repeat(1000));
    await copy!.release();
    expect(await store.localCopy('imports/gone.csv')).toBeNull();

    expect(await store.copy('covers/a.svg', 'covers/b.svg')).toBe(true);
    expect(await store.copy('covers/gone.svg', 'covers/c.svg')).toBe(false);
    await store.remove('covers/a.svg');
    await store.remove('covers/a.svg');
    expect(await text((await store.read('covers/b.svg'))!.stream)).toBe('<svg/>');

    for (const n of [3, 1, 2, 10, 4]) await store.putBytes(`reports/job/${n}.csv`, `${n}`);
    expect(await store.list('reports/job')).toEqual(
      ['1', '10', '2', '3', '4'].map((n) => `reports/job/${n}.csv`),
    );
    await store.removeFolder('reports/job');
    expect(await store.list('reports/job')).toEqual([]);
    expect(await store.list('nothing-here')).toEqual([]);
    await store.removeFolder('nothing-here');

    // Nothing is left behind in this process's scratch folder.
    const scratchFiles = path.join(scratch, 'tmp', 'files');
    expect(existsSync(scratchFiles) ? readdirSync(scratchFiles) : []).toEqual([]);
    await expect(store.putBytes('../escape', 'x')).rejects.toThrow('not a file key');
  });
});

describe('file store: S3 bucket', () => {
  it('keeps every key under the URL prefix, signed with the given credentials', async () => {
    expect(s3.keys()).toContain('tenant-a/covers/b.svg');
    const signed = s3.requests.filter((request) => request.status < 300);
    expect(new Set(signed.map((request) => request.operation))).toEqual(
      new Set([
        'HeadBucket',
        'PutObject',
        'GetObject',
        'HeadObject',
        'CopyObject',
        'DeleteObject',
        'ListObjectsV2',
        'DeleteObjects',
      ]),
    );
  });

  it('names the problem when the bucket refuses the credentials', async () => {
    const wrong = openFileStore(s3Config('not-the-secret'), path.join(work, 'scratch-wrong'));
    await expect(wrong.check()).rejects.toThrow(
      /the bucket ccp-files at http:\/\/127\.0\.0\.1:\d+ refuses these credentials/,
    );
    await expect(wrong.putBytes('covers/x.png', 'x')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    expect(s3.keys()).not.toContain('tenant-a/covers/x.png');
  });

  it('reads CCP_STORAGE_URL and refuses what it cannot use', () => {
    expect(
      parseStorageUrl('s3://ccp-files/prod/ccp/?endpoint=http://127.0.0.1:9000', {}),
    ).toMatchObject({
      bucket: 'ccp-files',
      prefix: 'prod/ccp/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(parseStorageUrl('s3://ccp-files', { AWS_REGION: 'eu-south-1' })).toMatchObject({
      prefix: '',
      region: 'eu-south-1',
      forcePathStyle: false,
    });
    expect(() => parseStorageUrl('s3://ccp-files', {})).toThrow('needs the bucket region');
    // Unset: the shared folder CCP_FILES_DIR, else the data dir.
    expect(storageConfigFromEnv({}, '/srv/ccp/data')).toEqual({
      kind: 'local',
      root: '/srv/ccp/data',
    });
    expect(storageConfigFromEnv({ CCP_FILES_DIR: '/mnt/ccp' }, '/srv/ccp/data')).toEqual({
      kind: 'local',
      root: '/mnt/ccp',
    });
    expect(() => parseStorageUrl('s3://AK:SK@ccp-files?region=x', {})).toThrow(
      'must not hold credentials',
    );
    expect(() => parseStorageUrl('https://ccp-files', {})).toThrow('must start with s3://');
    expect(() => parseStorageUrl('s3://ccp-files?regoin=eu', {})).toThrow(
      'unknown parameter "regoin"',
    );
  });
});
