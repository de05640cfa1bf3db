import path from 'node:path';

import { UsageError } from './errors.ts';
import type { CliIo } from './io.ts';

export const DEFAULT_API_URL = 'http://127.0.0.1:8080';

/** Set and not "0"/"false": how CI=… and CCP_NO_INPUT=… read. */
export const envFlag = (value: string | undefined): boolean =>
  value !== undefined && value !== '' && !['0', 'false', 'no'].includes(value.toLowerCase());

/** CCP_CONFIG_DIR, else $XDG_CONFIG_HOME/ccp, else %APPDATA%\ccp on Windows, else ~/.config/ccp. */
export const configDir = (io: Pick<CliIo, 'env' | 'platform' | 'homedir'>): string => {
  const { env } = io;
  if (env.CCP_CONFIG_DIR) return path.resolve(env.CCP_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'ccp');
  if (io.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'ccp');
  return path.join(io.homedir, '.config', 'ccp');
};

export const credentialsFile = (io: Pick<CliIo, 'env' | 'platform' | 'homedir'>): string =>
  path.join(configDir(io), 'credentials.json');

/** What an API URL looks like, for the errors that say the given one is not. */
export const API_URL_EXAMPLE = "https://ccp.example.com (the server's address, without /api)";

/**
 * The API base URL: --api-url, else CCP_API_URL, else the one last signed in to (`remembered`),
 * else the local default. Normalised (no trailing slash), because it also keys the stored sessions.
 */
export const resolveApiUrl = (
  flag: string | undefined,
  io: Pick<CliIo, 'env'>,
  remembered?: string | null,
): string => {
  const raw = flag ?? (io.env.CCP_API_URL || remembered || DEFAULT_API_URL);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `Invalid --api-url "${raw}": expected an http(s) URL such as ${DEFAULT_API_URL}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `Invalid --api-url "${raw}": expected an http(s) URL such as ${DEFAULT_API_URL}`,
    );
  }
  const pathname = url.pathname.replace(/\/+$/, '');
  // The client adds /api/v1/… itself: a URL ending in /api would ask for /api/api/v1/….
  if (/\/api(\/v\d+)?$/i.test(pathname)) {
    throw new UsageError(
      `Invalid --api-url "${raw}": drop the trailing ${/\/api.*$/i.exec(pathname)![0]}; expected an address such as ${API_URL_EXAMPLE}`,
    );
  }
  return `${url.origin}${pathname}`;
};

/** --timeout in seconds (else CCP_TIMEOUT, else 60) as ms; 0 means no limit. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

export const parseSeconds = (value: string): number => {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(
      `Invalid timeout "${value}": expected seconds, such as 30 (0 for no limit).`,
    );
  }
  return seconds;
};

export const resolveTimeoutMs = (flag: number | undefined, io: Pick<CliIo, 'env'>): number => {
  const env = io.env.CCP_TIMEOUT;
  const seconds = flag ?? (env ? parseSeconds(env) : DEFAULT_TIMEOUT_SECONDS);
  return Math.round(seconds * 1000);
};
