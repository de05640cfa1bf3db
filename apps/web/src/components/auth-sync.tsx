import { useInvalidateAuthStore } from '@refinedev/core';
import { useEffect } from 'react';

import { TOKENS_STORAGE_KEY } from '../config.ts';

/** Signing in or out in another tab updates this one. */
export const AuthSync = () => {
  const invalidateAuthStore = useInvalidateAuthStore();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKENS_STORAGE_KEY || event.key === null) void invalidateAuthStore();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [invalidateAuthStore]);
  return null;
};
