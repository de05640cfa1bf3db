import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';

// A fake S3-compatible object store on 127.0.0.1, speaking the REST protocol of the operations
// the server uses, path-style (http://127.0.0.1:<port>/<bucket>/<key>): HeadBucket, PutObject
// (streamed to disk, Content-Length required as S3 requires it), CopyObject, GetObject with
// Range, HeadObject, DeleteObject, DeleteObjects (with the checksum S3 requires) and
// ListObjectsV2 with continuation tokens. Every request is authenticated as S3 does it:
// AWS Signature Version 4 recomputed from the canonical request (method, path as sent, sorted
// query, signed headers, x-amz-content-sha256), the clock skew checked, a signed payload hash
// checked against the body; aws-chunked uploads are refused (the client must not send them).
// Answers are S3's XML, errors S3's codes. No vitest import: bench scripts run it too.

export type FakeS3Options = {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  /** Keys per ListObjectsV2 page (S3: 1,000), lowered to exercise continuation. */
  pageSize?: number;
};

type StoredObject = {
  file: string;
  size: number;
  etag: string;
  contentType: string;
  lastModified: Date;
};

export type FakeS3Request = { method: string; operation: string; key: string; status: number };

export type FakeS3 = {
  endpoint: string;
  /** The CCP_STORAGE_URL of the bucket (an optional key prefix). */
  storageUrl: (prefix?: string) => string;
  /** AWS_* variables of the bucket's credentials, for a child process. */
  env: Record<string, string>;
  keys: () => string[];
  object: (key: string) => StoredObject | undefined;
  requests: FakeS3Request[];
  close: () => Promise<void>;
};

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const UNSIGNED = 'UNSIGNED-PAYLOAD';
const MAX_SKEW_MS = 15 * 60 * 1000;

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );

// SigV4's URI encoding: RFC 3986 unreserved characters stay, everything else is %XX.
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data).digest();

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const canonicalQuery = (rawQuery: string) =>
  rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const mark = pair.indexOf('=');
      const key = decodeURIComponent(mark < 0 ? pair : pair.slice(0, mark));
      const value = mark < 0 ? '' : decodeURIComponent(pair.slice(mark + 1).replace(/\+/g, ' '));
      return [uriEncode(key), uriEncode(value)] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');

/** Checks the request's SigV4 Authorization header; answers its payload hash (or UNSIGNED). */
const verifySignature = (
  request: IncomingMessage,
  options: Required<Pick<FakeS3Options, 'accessKeyId' | 'secretAccessKey' | 'region'>>,
): string => {
  const authorization = request.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) throw new S3Failure(403, 'AccessDenied', 'Missing or malformed SigV4 Authorization');
  const [, accessKeyId, day, region, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== options.accessKeyId) {
    throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id does not exist');
  }
  if (region !== options.region) {
    throw new S3Failure(
      400,
      'AuthorizationHeaderMalformed',
      `The region must be ${options.region}`,
    );
  }
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const time = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!time || !amzDate.startsWith(day!)) {
    throw new S3Failure(403, 'AccessDenied', 'x-amz-date is missing or does not match the scope');
  }
  const sent = Date.UTC(+time[1]!, +time[2]! - 1, +time[3]!, +time[4]!, +time[5]!, +time[6]!);
  if (Math.abs(Date.now() - sent) > MAX_SKEW_MS) {
    throw new S3Failure(403, 'RequestTimeTooSkewed', 'The request time is too far from ours');
  }
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) {
    throw new S3Failure(400, 'InvalidRequest', 'Missing required header x-amz-content-sha256');
  }
  if (payloadHash.startsWith('STREAMING-')) {
    throw new S3Failure(501, 'NotImplemented', `${payloadHash} uploads are not accepted here`);
  }
  const signedHeaders = signedHeaderList!.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signedHeaders.includes(required)) {
      throw new S3Failure(403, 'AccessDenied', `${required} must be signed`);
    }
  }
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const canonicalRequest = [
    request.method,
    mark < 0 ? url : url.slice(0, mark),
    canonicalQuery(mark < 0 ? '' : url.slice(mark + 1)),
    signedHeaders
      .map((name) => {
        const value = request.headers[name];
        const text = Array.isArray(value) ? value.join(',') : (value ?? '');
        return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
      })
      .join(''),
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day!), region), 's3'),
    'aws4_request',
  );
  if (hmac(key, stringToSign).toString('hex') !== signature) {
    throw new S3Failure(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  return payloadHash;
};

const readAll = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Starts the fake with one empty bucket; objects are files in a temp folder. */
export const startFakeS3 = async (options: FakeS3Options): Promise<FakeS3> => {
  const settings = { region: 'us-east-1', pageSize: 1000, ...options };
  const folder = mkdtempSync(path.join(tmpdir(), 'ccp-fake-s3-'));
  const objects = new Map<string, StoredObject>();
  const requests: FakeS3Request[] = [];

  const sendXml = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'fake' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  };

  const objectHeaders = (object: StoredObject) => ({
    'content-type': object.contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
  });

  const putObject = async (request: IncomingMessage, key: string, payloadHash: string) => {
    const length = request.headers['content-length'];
    if (length === undefined) {
      throw new S3Failure(411, 'MissingContentLength', 'You must provide the Content-Length');
    }
    const file = path.join(folder, randomUUID());
    const md5 = createHash('md5');
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      request,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(file),
    );
    if (size !== Number(length)) {
      await rm(file, { force: true });
      throw new S3Failure(400, 'IncompleteBody', 'The body is shorter than its Content-Length');
    }
    if (payloadHash !== UNSIGNED && payloadHash !== hash.digest('hex')) {
      await rm(file, { force: true });
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch', 'The payload hash does not match');
    }
    const previous = objects.get(key);
    objects.set(key, {
      file,
      size,
      etag: `"${md5.digest('hex')}"`,
      contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'),
      lastModified: new Date(),
    });
    if (previous) await rm(previous.file, { force: true });
  };

  const copyObject = async (source: string, key: string) => {
    const mark = source.replace(/^\//, '').indexOf('/');
    const from = decodeURIComponent(source.replace(/^\//, '').slice(mark + 1));
    const original = objects.get(from);
    if (!original || !source.replace(/^\//, '').startsWith(`${settings.bucket}/`)) {
      throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
    }
    const file = path.join(folder, randomUUID());
    await copyFile(original.file, file);
    const copy = { ...original, file, lastModified: new Date() };
    objects.set(key, copy);
    return copy;
  };

  const listObjects = (query: URLSearchParams) => {
    const prefix = query.get('prefix') ?? '';
    const token = query.get('continuation-token');
    const after = token
      ? Buffer.from(token, 'base64url').toString()
      : (query.get('start-after') ?? '');
    const max = Math.min(Number(query.get('max-keys') ?? settings.pageSize), settings.pageSize);
    const matching = [...objects.keys()]
      .filter((key) => key.startsWith(prefix) && key > after)
      .sort();
    const page = matching.slice(0, max);
    const truncated = matching.length > page.length;
    const encode = query.get('encoding-type') === 'url' ? uriEncode : (text: string) => text;
    const contents = page
      .map((key) => {
        const object = objects.get(key)!;
        return `<Contents><Key>${escapeXml(encode(key))}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${escapeXml(object.etag)}</ETag><Size>${object.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const next = truncated
      ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64url')}</NextContinuationToken>`
      : '';
    return `<ListBucketResult xmlns="${XMLNS}"><Name>${settings.bucket}</Name><Prefix>${escapeXml(encode(prefix))}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${token}</ContinuationToken>` : ''}${next}${contents}</ListBucketResult>`;
  };

  const deleteObjects = async (request: IncomingMessage, payloadHash: string) => {
    const body = await readAll(request);
    if (payloadHash !== UNSIGNED && payloadHash !== sha256(body)) {
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch', 'The payload hash does not match');
    }
    // S3 requires Content-MD5 or a checksum header on DeleteObjects, and checks it.
    const md5 = request.headers['content-md5'];
    const crc = request.headers['x-amz-checksum-crc32'];
    if (md5) {
      if (md5 !== createHash('md5').update(body).digest('base64')) {
        throw new S3Failure(400, 'BadDigest', 'The Content-MD5 you specified did not match');
      }
    } else if (crc) {
      const expected = Buffer.alloc(4);
      expected.writeUInt32BE(crc32(body));
      if (crc !== expected.toString('base64')) {
        throw new S3Failure(400, 'BadDigest', 'The CRC32 you specified did not match');
      }
    } else {
      throw new S3Failure(
        400,
        'InvalidRequest',
        'Missing required header for this request: Content-MD5',
      );
    }
    const text = body.toString('utf8');
    const keys = [...text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((found) =>
      found[1]!
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&'),
    );
    if (keys.length > 1000) throw new S3Failure(400, 'MalformedXML', 'At most 1000 keys');
    const quiet = /<Quiet>true<\/Quiet>/.test(text);
    for (const key of keys) {
      const object = objects.get(key);
      objects.delete(key);
      if (object) await rm(object.file, { force: true });
    }
    return `<DeleteResult xmlns="${XMLNS}">${quiet ? '' : keys.map((key) => `<Deleted><Key>${escapeXml(key)}</Key></Deleted>`).join('')}</DeleteResult>`;
  };

  const getObject = (request: IncomingMessage, response: ServerResponse, key: string) => {
    const object = objects.get(key);
    if (!object) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
    const range = request.headers.range;
    if (!range) {
      response.writeHead(200, { ...objectHeaders(object), 'content-length': object.size });
      if (request.method === 'HEAD') return response.end();
      createReadStream(object.file).pipe(response);
      return;
    }
    const parts = /^bytes=(\d*)-(\d*)$/.exec(range);
    if (!parts || (parts[1] === '' && parts[2] === '')) {
      throw new S3Failure(400, 'InvalidArgument', 'Invalid Range');
    }
    let start: number;
    let end: number;
    if (parts[1] === '') {
      start = Math.max(0, object.size - Number(parts[2]));
      end = object.size - 1;
    } else {
      start = Number(parts[1]);
      end = parts[2] === '' ? object.size - 1 : Math.min(Number(parts[2]), object.size - 1);
    }
    if (start >= object.size || end < start) {
      throw new S3Failure(416, 'InvalidRange', 'The requested range is not satisfiable');
    }
    response.writeHead(206, {
      ...objectHeaders(object),
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${object.size}`,
    });
    if (request.method === 'HEAD') return response.end();
    createReadStream(object.file, { start, end }).pipe(response);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    let operation = `${request.method} ${key ? 'object' : 'bucket'}`;
    const record = (status: number) =>
      requests.push({ method: request.method ?? '', operation, key, status });
    try {
      const payloadHash = verifySignature(request, settings);
      if (bucket !== settings.bucket) {
        throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
      }
      if (!key) {
        if (request.method === 'HEAD') {
          operation = 'HeadBucket';
          response.writeHead(200, { 'x-amz-bucket-region': settings.region });
          response.end();
        } else if (request.method === 'GET' && url.searchParams.get('list-type') === '2') {
          operation = 'ListObjectsV2';
          sendXml(response, 200, listObjects(url.searchParams));
        } else if (request.method === 'POST' && url.searchParams.has('delete')) {
          operation = 'DeleteObjects';
          sendXml(response, 200, await deleteObjects(request, payloadHash));
        } else {
          throw new S3Failure(501, 'NotImplemented', `${request.method} on a bucket`);
        }
        return record(200);
      }
      if (request.method === 'PUT' && request.headers['x-amz-copy-source']) {
        operation = 'CopyObject';
        await readAll(request);
        const copy = await copyObject(String(request.headers['x-amz-copy-source']), key);
        sendXml(
          response,
          200,
          `<CopyObjectResult xmlns="${XMLNS}"><LastModified>${copy.lastModified.toISOString()}</LastModified><ETag>${escapeXml(copy.etag)}</ETag></CopyObjectResult>`,
        );
      } else if (request.method === 'PUT') {
        operation = 'PutObject';
        await putObject(request, key, payloadHash);
        response.writeHead(200, { etag: objects.get(key)!.etag });
        response.end();
      } else if (request.method === 'GET' || request.method === 'HEAD') {
        operation = request.method === 'GET' ? 'GetObject' : 'HeadObject';
        getObject(request, response, key);
      } else if (request.method === 'DELETE') {
        operation = 'DeleteObject';
        const object = objects.get(key);
        objects.delete(key);
        if (object) await rm(object.file, { force: true });
        response.writeHead(204);
        response.end();
      } else {
        throw new S3Failure(405, 'MethodNotAllowed', `${request.method} on an object`);
      }
      record(response.statusCode);
    } catch (error) {
      const failure =
        error instanceof S3Failure ? error : new S3Failure(500, 'InternalError', String(error));
      record(failure.status);
      // The rest of a refused upload is read and dropped, so the client sees the answer.
      request.resume();
      if (response.headersSent) return response.destroy();
      if (request.method === 'HEAD') {
        response.writeHead(failure.status, { 'x-amz-error-code': failure.code });
        return response.end();
      }
      sendXml(
        response,
        failure.status,
        `<Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message><Key>${escapeXml(key)}</Key><RequestId>fake</RequestId></Error>`,
      );
    }
  };

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    storageUrl: (prefix = '') =>
      `s3://${settings.bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=${settings.region}`,
    env: {
      AWS_ACCESS_KEY_ID: settings.accessKeyId,
      AWS_SECRET_ACCESS_KEY: settings.secretAccessKey,
    },
    keys: () => [...objects.keys()].sort(),
    object: (key) => objects.get(key),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        });
      }),
  };
};
