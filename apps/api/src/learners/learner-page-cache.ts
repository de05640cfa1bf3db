// What a process remembers of the learners list between requests: per query (a company's live
// or archived learners, maybe of one list, maybe searched) its total and where its pages start;
// per company the member count of each list (and, at version 0 for ever, the channel names). Every value belongs to one version of the company's
// learners (learners-version.ts): a request that reads a newer version computes afresh, so a
// write is seen by the next request. Values also expire after MAX_AGE_MS, in case a write came
// from outside the repositories (an operator's SQL).

/** At most this many values per database handle (least recently used first out). */
const MAX_ENTRIES = 500;
const MAX_AGE_MS = 60_000;

type Entry<T> = { version: number; born: number; value: Promise<T> };

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  /**
   * The value of `key` at `version` or later, computed once: concurrent requests share one
   * computation (50 connections asking a new version's page 1 count the list once).
   */
  get(key: string, version: number, compute: () => Promise<T>): Promise<T> {
    const now = performance.now();
    let entry = this.entries.get(key);
    if (!entry || entry.version < version || now - entry.born > MAX_AGE_MS) {
      const created: Entry<T> = { version, born: now, value: compute() };
      // A failed computation is not remembered (the request that asked reports the error).
      created.value.catch(() => {
        if (this.entries.get(key) === created) this.entries.delete(key);
      });
      entry = created;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.value;
  }
}

const cachesByDb = new WeakMap<object, Map<string, VersionedCache<unknown>>>();

/** The cache called `name` of one database handle (tests run many databases in one process). */
export const cacheOf = <T>(db: object, name: string): VersionedCache<T> => {
  let caches = cachesByDb.get(db);
  if (!caches) {
    caches = new Map();
    cachesByDb.set(db, caches);
  }
  let cache = caches.get(name);
  if (!cache) {
    cache = new VersionedCache<unknown>();
    caches.set(name, cache);
  }
  return cache as VersionedCache<T>;
};
