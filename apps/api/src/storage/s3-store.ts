import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';

import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';

import { checkKey, downloadTo, scratchFile } from './file-store.ts';
import type { FileStore } from './file-store.ts';
import type { S3StorageConfig } from './storage-config.ts';

// The FileStore on S3-compatible object storage (CCP_STORAGE_URL) through @aws-sdk/client-s3.
// Uploads stream from a file on this machine with its length (one PutObject: our files are at
// most 700 MB, S3 takes 5 GB in one request); downloads stream the response body. The SDK is
// loaded on first use, so a server without object storage never loads it.
//
// Checksums are sent and checked only where S3 requires them (DeleteObjects): the SDK's default
// since 2025 streams every upload as aws-chunked with a CRC32 trailer, which several
// S3-compatible services (older MinIO, Ceph RGW, some R2 paths) refuse. docs/decisions.md.

type Sdk = typeof S3Sdk;

const isNotFound = (error: unknown) => {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    failure?.name === 'NoSuchKey' ||
    failure?.name === 'NotFound' ||
    failure?.$metadata?.httpStatusCode === 404
  );
};

/** An S3 key in the copy-source header: each segment percent-encoded. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

// DeleteObjects takes at most 1,000 keys per request.
const DELETE_BATCH = 1000;

/**
 * `config`: the bucket and endpoint; `scratchDir`: this process's data dir, where uploads are
 * staged and downloads for random-access reads are kept while used.
 */
export const createS3FileStore = (config: S3StorageConfig, scratchDir: string): FileStore => {
  const { bucket, prefix } = config;
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | null = null;
  const connect = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
        ...(config.credentials ? { credentials: config.credentials } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A store that does not answer fails the request instead of hanging it.
        requestHandler: { connectionTimeout: 10_000 },
      }),
    })));
  const full = (key: string) => `${prefix}${checkKey(key)}`;

  const putFile = async (key: string, file: string, contentType?: string) => {
    const { sdk, client } = await connect();
    const { size } = await stat(file);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: bucket,
        Key: full(key),
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: contentType ?? 'application/octet-stream',
      }),
    );
  };

  const listKeys = async (folder: string): Promise<string[]> => {
    const { sdk, client } = await connect();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: bucket,
          Prefix: `${full(folder)}/`,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) keys.push(item.Key.slice(prefix.length));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  };

  const read: FileStore['read'] = async (key, range) => {
    const { sdk, client } = await connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({
          Bucket: bucket,
          Key: full(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      // A range starting at or past the end of the object: nothing to read.
      if ((error as { name?: string }).name === 'InvalidRange') {
        const { Readable } = await import('node:stream');
        return { stream: Readable.from([]), size: 0 };
      }
      throw error;
    }
  };

  return {
    kind: 's3',
    location: `s3://${bucket}/${prefix}${config.endpoint ? ` at ${config.endpoint}` : ''}`,
    putBytes: async (key, bytes, contentType) => {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: full(key),
          Body: typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes,
          ContentType: contentType ?? 'application/octet-stream',
        }),
      );
    },
    stage: async (key) => {
      checkKey(key);
      const file = await scratchFile(scratchDir, key);
      return {
        key,
        path: file,
        keep: async (contentType) => {
          try {
            await putFile(key, file, contentType);
          } finally {
            await rm(file, { force: true });
          }
        },
        discard: () => rm(file, { force: true }),
      };
    },
    read,
    size: async (key) => {
      const { sdk, client } = await connect();
      try {
        const head = await client.send(
          new sdk.HeadObjectCommand({ Bucket: bucket, Key: full(key) }),
        );
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    localCopy: async (key) => {
      const object = await read(key);
      if (!object) return null;
      const file = await scratchFile(scratchDir, key);
      await downloadTo(object.stream, file);
      return { path: file, release: () => rm(file, { force: true }) };
    },
    copy: async (from, to) => {
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.CopyObjectCommand({
            Bucket: bucket,
            Key: full(to),
            CopySource: `${bucket}/${encodeKey(full(from))}`,
          }),
        );
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    remove: async (key) => {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: full(key) }));
    },
    list: listKeys,
    removeFolder: async (folder) => {
      const { sdk, client } = await connect();
      const keys = await listKeys(folder);
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const objects = keys.slice(start, start + DELETE_BATCH).map((key) => ({ Key: full(key) }));
        const answer = await client.send(
          new sdk.DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: objects, Quiet: true },
          }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(
            `object storage kept ${failed.length} object(s) under ${folder}/: ${failed[0]?.Code} ${failed[0]?.Message}`,
          );
        }
      }
    },
    check: async () => {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        const reason =
          status === 404
            ? 'does not exist'
            : status === 403
              ? 'refuses these credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)'
              : `cannot be reached: ${error instanceof Error ? error.message : String(error)}`;
        throw new Error(
          `the bucket ${bucket}${config.endpoint ? ` at ${config.endpoint}` : ''} ${reason}`,
        );
      }
    },
  };
};
