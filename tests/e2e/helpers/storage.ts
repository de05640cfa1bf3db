import type { Page } from '@playwright/test';

/**
 * The Web Storage entries (local and session) whose value holds something token-shaped: the
 * API's tokens (32 random bytes, 43 base64url characters) or a JWT. Issue 30: there must be none.
 */
export const tokenLikeStorage = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const tokenShaped = /[A-Za-z0-9_-]{40,}|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
    const found: string[] = [];
    for (const [area, storage] of [
      ['localStorage', window.localStorage],
      ['sessionStorage', window.sessionStorage],
    ] as const) {
      for (let index = 0; index < storage.length; index += 1) {
        const key = storage.key(index) ?? '';
        if (tokenShaped.test(storage.getItem(key) ?? '')) found.push(`${area}.${key}`);
      }
    }
    return found;
  });

/** One localStorage entry of the page, or null. */
export const localStorageItem = (page: Page, key: string): Promise<string | null> =>
  page.evaluate((name) => window.localStorage.getItem(name), key);
