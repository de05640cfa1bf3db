// A nudge to the scheduler that work is waiting which should not wait for the next tick (the
// feedback on an answer the learner just gave, issue 28). The webhook that recorded the answer
// calls `notify`; the running scheduler (scheduler.ts startScheduler) listens. Without a listener
// (tests, a process without a scheduler) the work waits for the next tick.

export type DeliveryWake = {
  notify: () => void;
  /** Calls `listener` on each notify; answers the function that stops it. */
  listen: (listener: () => void) => () => void;
};

export const createDeliveryWake = (): DeliveryWake => {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
