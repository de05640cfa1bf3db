import type { PendingStepStore, TStoredFirstStep } from './auth-provider.ts';

/** The tokens a signed-in client holds. */
export type TTokens = {
  access_token: string;
  refresh_token: string;
  /** Epoch ms when the access token expires, if known. */
  expires_at?: number;
};

/** Where a host keeps its tokens: localStorage in the browser, a 0600 file in the CLI, memory in tests. */
export type TokenStore = {
  get: () => TTokens | null;
  set: (tokens: TTokens) => void;
  clear: () => void;
};

export const memoryTokenStore = (initial: TTokens | null = null): TokenStore => {
  let tokens = initial;
  return {
    get: () => tokens,
    set: (next) => {
      tokens = next;
    },
    clear: () => {
      tokens = null;
    },
  };
};

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A store over Web Storage (localStorage in the web app). A corrupt entry reads as signed out. */
export const webStorageTokenStore = (storage: StorageLike, key = 'ccp.tokens'): TokenStore => ({
  get: () => {
    const raw = storage.getItem(key);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<TTokens>;
      return typeof parsed.access_token === 'string' && typeof parsed.refresh_token === 'string'
        ? (parsed as TTokens)
        : null;
    } catch {
      return null;
    }
  },
  set: (tokens) => storage.setItem(key, JSON.stringify(tokens)),
  clear: () => storage.removeItem(key),
});

/** A first step waiting for the 2FA setup, in Web Storage (session storage in the web app). */
export const webStoragePendingStore = (
  storage: StorageLike,
  key = 'ccp.pending-setup',
): PendingStepStore => ({
  get: () => {
    const raw = storage.getItem(key);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<TStoredFirstStep>;
      return typeof parsed.access_token === 'string' &&
        typeof parsed.refresh_token === 'string' &&
        typeof parsed.expires_at === 'number'
        ? { ...(parsed as TStoredFirstStep), is_2fa_enabled: parsed.is_2fa_enabled === true }
        : null;
    } catch {
      return null;
    }
  },
  set: (step) => (step ? storage.setItem(key, JSON.stringify(step)) : storage.removeItem(key)),
});
