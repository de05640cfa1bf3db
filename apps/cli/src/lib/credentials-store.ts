import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import type { RefreshLock, TokenStore, TTokens } from '@ccp/data-provider';

// `<config>/credentials.json`: one session per API URL, readable by the owner only.
//   { "version": 1, "api_url": "http://127.0.0.1:8080",
//     "sessions": { "http://127.0.0.1:8080": { access_token, refresh_token, expires_at? } } }
// `api_url` is the URL last signed in to: commands without --api-url or CCP_API_URL use it.

type CredentialsFile = { version: 1; api_url?: string; sessions: Record<string, TTokens> };

export type FileTokenStoreOptions = {
  file: string;
  /** The normalised API URL whose session this store holds. */
  apiUrl: string;
  /** Told once when the file cannot be read (it then reads as signed out). */
  warn?: (message: string) => void;
};

const isTokens = (value: unknown): value is TTokens =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TTokens).access_token === 'string' &&
  typeof (value as TTokens).refresh_token === 'string';

const empty = (): CredentialsFile => ({ version: 1, sessions: {} });

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export const writeFileAtomic = (file: string, content: string): void => {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, content, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
};

/**
 * The CLI's TokenStore: the session for one API URL in a 0600 JSON file, read on every `get` so a
 * refresh by another ccp process is seen. A corrupt file reads as signed out, with a warning.
 */
export type FileTokenStore = TokenStore & {
  /** Makes this store's API URL the one commands use when none is given (ccp login). */
  remember: () => void;
};

/** The API URL last signed in to, or null (no file, unreadable, or none recorded). */
export const rememberedApiUrl = (file: string): string | null => {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CredentialsFile> | null;
    return typeof parsed?.api_url === 'string' ? parsed.api_url : null;
  } catch {
    return null;
  }
};

export const fileTokenStore = ({ file, apiUrl, warn }: FileTokenStoreOptions): FileTokenStore => {
  let warned = false;

  const read = (): CredentialsFile => {
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw error;
    }
    try {
      const parsed = JSON.parse(raw) as Partial<CredentialsFile> | null;
      if (parsed && typeof parsed.sessions === 'object' && parsed.sessions !== null) {
        return {
          version: 1,
          ...(typeof parsed.api_url === 'string' ? { api_url: parsed.api_url } : {}),
          sessions: parsed.sessions,
        };
      }
    } catch {
      // Reported below.
    }
    if (!warned) {
      warned = true;
      warn?.(`Warning: ${file} is corrupt and was ignored; you are signed out. Run: ccp login`);
    }
    return empty();
  };

  const save = (content: CredentialsFile) =>
    writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);

  return {
    get: () => {
      const session = read().sessions[apiUrl];
      return isTokens(session) ? session : null;
    },
    set: (tokens) => {
      const content = read();
      content.sessions[apiUrl] = tokens;
      save(content);
    },
    remember: () => {
      const content = read();
      if (content.api_url === apiUrl) return;
      save({ ...content, api_url: apiUrl });
    },
    clear: () => {
      const content = read();
      if (!(apiUrl in content.sessions)) return;
      delete content.sessions[apiUrl];
      save(content);
    },
  };
};

/** A lock file older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;
const LOCK_POLL_MS = 25;
/** How long to wait for another process's refresh before refreshing regardless. */
const LOCK_WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates `lockFile` exclusively; false when another process holds it (stale locks are broken). */
const tryLock = async (lockFile: string): Promise<boolean> => {
  try {
    const handle = await open(lockFile, 'wx', 0o600);
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - (await stat(lockFile)).mtimeMs > STALE_LOCK_MS) await rm(lockFile);
  } catch {
    // Released (or broken) by another process meanwhile: try again.
  }
  return false;
};

/**
 * The refresh lock of the CLI (HttpClientOptions.refreshLock): a lock file next to the
 * credentials, so ccp processes started side by side (a CI job's parallel steps) rotate the
 * refresh token once instead of each presenting the spent one, which ends the session.
 */
export const credentialsRefreshLock =
  (credentials: string): RefreshLock =>
  async (task) => {
    const lockFile = `${credentials}.lock`;
    await mkdir(path.dirname(lockFile), { recursive: true, mode: 0o700 });
    const deadline = Date.now() + LOCK_WAIT_MS;
    let locked = await tryLock(lockFile);
    while (!locked && Date.now() < deadline) {
      await sleep(LOCK_POLL_MS);
      locked = await tryLock(lockFile);
    }
    try {
      return await task();
    } finally {
      if (locked) await rm(lockFile, { force: true });
    }
  };
