/** A value loaded on demand, kept until it expires or is cleared; concurrent reads share one load. */
export type CachedValue<T> = {
  get: () => Promise<T>;
  /** The stored value if it is still fresh, without loading. */
  peek: () => T | undefined;
  set: (value: T) => void;
  clear: () => void;
};

export type CachedValueOptions = {
  /** Lifetime in ms from when the value arrived; null keeps it until cleared. */
  ttlMs: number | null;
  now: () => number;
};

export const cachedValue = <T>(
  load: () => Promise<T>,
  { ttlMs, now }: CachedValueOptions,
): CachedValue<T> => {
  let stored: { value: T; expiresAt: number } | null = null;
  let loading: Promise<T> | null = null;
  // Bumped by set/clear, so a load that started before (e.g. before a logout) is not stored.
  let generation = 0;

  const fresh = () =>
    stored !== null && (ttlMs === null || now() < stored.expiresAt) ? stored : null;

  const keep = (value: T) => {
    stored = { value, expiresAt: ttlMs === null ? Infinity : now() + ttlMs };
  };

  return {
    get: () => {
      const hit = fresh();
      if (hit) return Promise.resolve(hit.value);
      if (loading) return loading;
      const started = generation;
      const current: Promise<T> = load()
        .then((value) => {
          if (started === generation) keep(value);
          return value;
        })
        .finally(() => {
          if (loading === current) loading = null;
        });
      loading = current;
      return current;
    },
    peek: () => fresh()?.value,
    set: (value) => {
      generation += 1;
      loading = null;
      keep(value);
    },
    clear: () => {
      generation += 1;
      loading = null;
      stored = null;
    },
  };
};
