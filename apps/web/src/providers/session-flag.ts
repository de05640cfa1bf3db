import { LEGACY_TOKENS_STORAGE_KEY, SESSION_FLAG_STORAGE_KEY } from '../config.ts';

// Read by the entry before anything else loads (main.tsx), so it imports nothing but the config.

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * "Maybe signed in": set while this browser holds a session, cleared when it ends. It is no
 * secret and grants nothing; it only spares a stranger the refresh call on every page load, and
 * spares a signed-in user the flash of /login while the cookie's session is resumed. Its changes
 * reach the other tabs as storage events (components/auth-sync.tsx).
 */
export type SessionFlag = {
  isSet: () => boolean;
  set: () => void;
  clear: () => void;
};

// Storage a browser refuses (disabled, some private modes) throws on access: read as unset.
const browserStorage = (): StorageLike | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

const attempt = (task: () => void) => {
  try {
    task();
  } catch {
    // A full or refused storage only costs the resume after a reload.
  }
};

export const sessionFlag = (storage: () => StorageLike | null = browserStorage): SessionFlag => ({
  isSet: () => {
    try {
      return storage()?.getItem(SESSION_FLAG_STORAGE_KEY) === '1';
    } catch {
      return false;
    }
  },
  set: () => attempt(() => storage()?.setItem(SESSION_FLAG_STORAGE_KEY, '1')),
  clear: () => attempt(() => storage()?.removeItem(SESSION_FLAG_STORAGE_KEY)),
});

/**
 * Removes the tokens versions before issue 30 kept in localStorage: unread, so whoever used them
 * signs in once more and gets the cookie; a script injected later finds nothing to take.
 */
export const forgetLegacyTokens = (storage: () => StorageLike | null = browserStorage): void =>
  attempt(() => storage()?.removeItem(LEGACY_TOKENS_STORAGE_KEY));
