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
