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

/**
 * The API base URL: --api-url, else CCP_API_URL, else the local default. Normalised (no trailing
 * slash), because it also keys the stored sessions.
 */
export const resolveApiUrl = (flag: string | undefined, io: Pick<CliIo, 'env'>): string => {
  const raw = flag ?? (io.env.CCP_API_URL || DEFAULT_API_URL);
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
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
};
