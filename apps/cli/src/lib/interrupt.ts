// What Ctrl-C (SIGINT) does is decided in index.ts, the only place that exits. A command that
// has something to settle first (an import running on the server) registers a handler here while
// that lasts; index.ts runs it, then exits 130.

export type InterruptHandler = () => Promise<void>;

let current: InterruptHandler | null = null;
let handling = false;

/** Sets (or clears, with null) what Ctrl-C does before ccp exits. */
export const onInterrupt = (handler: InterruptHandler | null): void => {
  current = handler;
};

/** The handler for a Ctrl-C now, or null to exit at once (none, or a second Ctrl-C). */
export const takeInterruptHandler = (): InterruptHandler | null => {
  if (handling || !current) return null;
  handling = true;
  return current;
};

/** True once a handler runs: work it interrupted must stop drawing and wait. */
export const isInterrupted = (): boolean => handling;

/** Never settles: where interrupted work parks while its handler decides (ccp then exits). */
export const parkWhileInterrupted = (): Promise<never> =>
  handling ? new Promise<never>(() => undefined) : Promise.resolve(undefined as never);

/** Tests only. */
export const resetInterrupt = (): void => {
  current = null;
  handling = false;
};
