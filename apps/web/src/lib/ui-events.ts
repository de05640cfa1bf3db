import type { TMessage } from './messages.ts';
import type { TUpgradeRequest } from './upgrade-texts.ts';

/** What the http client asks the UI to show (its spec §7 reactions), and local requests. */
export type TUiEvents = {
  toast: TMessage;
  errorModal: TMessage;
  upgrade: TUpgradeRequest;
  logout: undefined;
};

type Listener<T> = (payload: T) => void;

/** A tiny typed event bus: the lazily loaded client emits, the always-present UI shell listens. */
export const createEventBus = <E extends Record<string, unknown>>() => {
  const listeners = new Map<keyof E, Set<Listener<never>>>();
  return {
    on: <K extends keyof E>(event: K, listener: Listener<E[K]>): (() => void) => {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit: <K extends keyof E>(event: K, payload: E[K]): void => {
      for (const listener of listeners.get(event) ?? []) (listener as Listener<E[K]>)(payload);
    },
  };
};

export const uiEvents = createEventBus<TUiEvents>();
