/** Where the server reads the time: injectable so tests (and the purge job) can move it. */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move; for tests. */
export const createManualClock = (start: Date | string = '2026-11-22T09:00:00.000Z') => {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (to: Date | string) => {
      current = new Date(to).getTime();
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
};

export const DAY_MS = 24 * 60 * 60 * 1000;

export const isoNow = (clock: Clock): string => clock.now().toISOString();
