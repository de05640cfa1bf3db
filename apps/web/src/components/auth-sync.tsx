import { useInvalidateAuthStore } from '@refinedev/core';
import { useEffect } from 'react';

import { SESSION_FLAG_STORAGE_KEY } from '../config.ts';
import { loadedProviders } from '../providers/lazy.ts';
import { sessionFlag } from '../providers/session-flag.ts';

/**
 * Signing in or out in another tab updates this one, through the "maybe signed in" flag: its
 * removal (a sign-out, a refused refresh) drops this tab's access token too, which the server
 * revoked with the cookie; its arrival has the guards resume the new session from the cookie.
 */
export const AuthSync = () => {
  const invalidateAuthStore = useInvalidateAuthStore();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_FLAG_STORAGE_KEY && event.key !== null) return;
      if (!sessionFlag().isSet()) loadedProviders()?.client.tokens.clear();
      void invalidateAuthStore();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [invalidateAuthStore]);
  return null;
};
