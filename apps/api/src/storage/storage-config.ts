import path from 'node:path';

// Where the server keeps its files (storage/file-store.ts), read from the environment:
// - CCP_STORAGE_URL unset: the local directory CCP_FILES_DIR, or the data dir (the default);
// - CCP_STORAGE_URL=s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>&path_style=<bool>]:
//   S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Ceph, ...). Credentials come from
//   the usual AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
//   AWS_PROFILE, an instance role...), never from the URL.

export type S3StorageConfig = {
  kind: 's3';
  bucket: string;
  /** Keys are stored under this prefix ("" or ending with "/"), so one bucket can hold more. */
  prefix: string;
  /** Another S3-compatible service (MinIO, R2...); absent: AWS S3. */
  endpoint: string | undefined;
  region: string;
  /** https://host/bucket/key addressing instead of https://bucket.host/key (MinIO needs it). */
  forcePathStyle: boolean;
  /** Given by tests; otherwise the SDK's default chain (the AWS_* variables, a profile, a role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export type StorageConfig = { kind: 'local'; root: string } | S3StorageConfig;

// S3's own rules for bucket names: 3-63 lowercase letters, digits, dots and hyphens.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PARAMS = new Set(['endpoint', 'region', 'path_style']);

const fail = (problem: string): never => {
  throw new Error(
    `CCP_STORAGE_URL ${problem} (expected s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>])`,
  );
};

/** Reads CCP_STORAGE_URL; a bad value stops start-up with a message naming it. */
export const parseStorageUrl = (value: string, env: NodeJS.ProcessEnv): S3StorageConfig => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`is not a URL: "${value}"`);
  }
  if (url.protocol !== 's3:') fail(`must start with s3://, got "${url.protocol}//"`);
  if (url.username || url.password) {
    fail('must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
  }
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) fail(`names no valid bucket: "${bucket}"`);
  for (const key of url.searchParams.keys()) {
    if (!PARAMS.has(key)) fail(`has an unknown parameter "${key}"`);
  }
  const endpoint = url.searchParams.get('endpoint') || undefined;
  if (endpoint && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    fail(`endpoint must be an http(s) URL, got "${endpoint}"`);
  }
  // AWS needs the bucket's region; other services mostly accept any (R2 documents "auto").
  const region =
    url.searchParams.get('region') ||
    env.AWS_REGION ||
    env.AWS_DEFAULT_REGION ||
    (endpoint ? 'us-east-1' : fail('needs the bucket region: add ?region=... or set AWS_REGION'));
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    fail(`path_style must be true or false, got "${pathStyle}"`);
  }
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region,
    // With an endpoint (MinIO and the like) path style unless told otherwise; AWS: virtual hosts.
    forcePathStyle: pathStyle === null ? Boolean(endpoint) : pathStyle === 'true',
  };
};

/** The store of this environment: object storage when CCP_STORAGE_URL is set, else a folder. */
export const storageConfigFromEnv = (env: NodeJS.ProcessEnv, dataDir: string): StorageConfig =>
  env.CCP_STORAGE_URL
    ? parseStorageUrl(env.CCP_STORAGE_URL, env)
    : { kind: 'local', root: env.CCP_FILES_DIR ? path.resolve(env.CCP_FILES_DIR) : dataDir };
