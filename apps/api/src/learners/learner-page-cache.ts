// What a process remembers of the learners list between requests: per query (a company's live
// or archived learners, maybe of one list, maybe searched) its total and where its pages start;
// per company the member count of each list (and, at version 0, the channel names). Every value
// belongs to one version of the company's learners (learners-version.ts): a request that reads a
// newer version computes afresh, so a write is seen by the next request. Values also expire after
// MAX_AGE_MS, in case a write came from outside the repositories (an operator's SQL).

/** At most this many values per cache, and this much weight (least recently used first out). */
const MAX_ENTRIES = 500;
const MAX_AGE_MS = 60_000;

type Entry<T> = {
  version: number;
  born: number;
  used: number;
  value: Promise<T>;
  weight: number;
};

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private weight = 0;
  private sweeper: NodeJS.Timeout | null = null;

  /**
   * `weigh` says what a value costs to keep (the learners list: the uuids it holds), and
   * `maxWeight` how much the cache keeps in all; with `idleMs`, a value not asked for that long
   * is let go even when nothing else is asked (its memory goes back to an idle server).
   */
  constructor(
    private readonly weigh: (value: T) => number = () => 1,
    private readonly maxWeight = MAX_ENTRIES,
    private readonly idleMs?: number,
  ) {}

  /** How many values are kept. */
  get size() {
    return this.entries.size;
  }

  /**
   * The value of `key` at `version` or later, computed once: concurrent requests share one
   * computation (50 connections asking a new version's page 1 count the list once).
   */
  get(key: string, version: number, compute: () => Promise<T>): Promise<T> {
    const now = performance.now();
    let entry = this.entries.get(key);
    if (!entry || entry.version < version || now - entry.born > MAX_AGE_MS) {
      if (entry) this.remove(key, entry);
      entry = this.computed(key, version, now, compute);
    }
    // Most recently used last.
    entry.used = now;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.trim();
    this.sweepLater();
    return entry.value;
  }

  /** Lets idle values go, checking again while any is kept (the timer never holds the process). */
  private sweepLater() {
    const { idleMs } = this;
    if (idleMs === undefined || this.sweeper) return;
    this.sweeper = setTimeout(() => {
      this.sweeper = null;
      const now = performance.now();
      for (const [key, entry] of [...this.entries]) {
        if (now - entry.used >= idleMs) this.remove(key, entry);
      }
      if (this.entries.size > 0) this.sweepLater();
    }, idleMs / 2);
    this.sweeper.unref();
  }

  private computed(key: string, version: number, now: number, compute: () => Promise<T>) {
    const entry: Entry<T> = { version, born: now, used: now, value: compute(), weight: 0 };
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        entry.weight = this.weigh(value);
        this.weight += entry.weight;
        this.trim();
      },
      // A failed computation is not remembered (the request that asked reports the error).
      () => {
        if (this.entries.get(key) === entry) this.remove(key, entry);
      },
    );
    return entry;
  }

  private remove(key: string, entry: Entry<T>) {
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  /** Forgets the least recently used values past the limits, never the last one asked. */
  private trim() {
    while (
      this.entries.size > 1 &&
      (this.entries.size > MAX_ENTRIES || this.weight > this.maxWeight)
    ) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.remove(oldest, entry);
    }
  }
}

const cachesByDb = new WeakMap<object, Map<string, VersionedCache<unknown>>>();

/** The cache called `name` of one database handle (tests run many databases in one process). */
export const cacheOf = <T>(db: object, name: string, make = () => new VersionedCache<T>()) => {
  let caches = cachesByDb.get(db);
  if (!caches) {
    caches = new Map();
    cachesByDb.set(db, caches);
  }
  let cache = caches.get(name) as VersionedCache<T> | undefined;
  if (!cache) {
    cache = make();
    caches.set(name, cache as VersionedCache<unknown>);
  }
  return cache;
};
