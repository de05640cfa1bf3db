// A lazy chunk that does not load: a tab opened before a redeploy asks for a file the new build no
// longer has, or the network is gone. The first case reloads once to the new build; the second
// shows spec §8's network error, never the browser's "Failed to fetch dynamically imported
// module: …".

const RELOADED_AT_KEY = 'ccp.chunk-reload';
/** At most one reload in this window: a build that keeps failing shows its error instead. */
const RELOAD_GUARD_MS = 60_000;

/** A chunk that could not be loaded; `offline` when the server cannot be reached at all. */
export class ChunkLoadError extends Error {
  readonly offline: boolean;

  constructor(offline: boolean, cause: unknown) {
    super(offline ? 'The network is unreachable.' : 'A part of the app could not be loaded.', {
      cause,
    });
    this.name = 'ChunkLoadError';
    this.offline = offline;
  }
}

const CHUNK_FAILURE =
  /failed to fetch dynamically imported module|importing a module script failed|error loading dynamically imported module|unable to preload css/i;

/** Whether an error is a dynamic import that failed (each browser words it its own way). */
export const isChunkFailure = (error: unknown): boolean =>
  error instanceof ChunkLoadError ||
  (error instanceof Error &&
    (error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message)));

export type TChunkEnvironment = {
  online: () => boolean;
  /** Whether the server answers (its health probe), so a missing file means a new build. */
  serverAnswers: () => Promise<boolean>;
  reload: () => void;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
};

const browser = (): TChunkEnvironment => ({
  online: () => navigator.onLine,
  serverAnswers: async () => {
    try {
      return (await fetch('/api/health', { cache: 'no-store' })).ok;
    } catch {
      return false;
    }
  },
  reload: () => window.location.reload(),
  storage: (() => {
    try {
      return window.sessionStorage;
    } catch {
      return null;
    }
  })(),
  now: Date.now,
});

/** Loads a lazy chunk: reloads once to a new build when its file is gone, names a lost network. */
export const loadChunk = async <T>(
  load: () => Promise<T>,
  environment: TChunkEnvironment = browser(),
): Promise<T> => {
  try {
    return await load();
  } catch (error) {
    if (!isChunkFailure(error)) throw error;
    if (!environment.online() || !(await environment.serverAnswers())) {
      throw new ChunkLoadError(true, error);
    }
    const last = Number(environment.storage?.getItem(RELOADED_AT_KEY) ?? 0);
    if (environment.now() - last < RELOAD_GUARD_MS) throw new ChunkLoadError(false, error);
    environment.storage?.setItem(RELOADED_AT_KEY, String(environment.now()));
    environment.reload();
    // The page is going away: nothing renders meanwhile.
    return new Promise<T>(() => undefined);
  }
};
