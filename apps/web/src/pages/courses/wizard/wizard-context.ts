import type { TCourse } from '@ccp/schemas';
import { createContext, useContext, useSyncExternalStore } from 'react';

import type { TDraftStore, TStep } from './draft.ts';

// The course being edited, shared by the wizard's steps.

export type TWizardContext = {
  store: TDraftStore;
  course: TCourse;
  /** Whether the company has any learners list (spec §5 "Please create at least one…"). */
  hasLearnersLists: boolean;
  /** Steps the creator may open now (a later step waits for the current one). */
  reachable: Record<TStep, boolean>;
  goTo: (step: TStep, search?: string) => void;
  /** Changes can be saved (draft, scheduled, paused, not archived). */
  editable: boolean;
};

export const WizardContext = createContext<TWizardContext | null>(null);

export const useWizard = (): TWizardContext => {
  const context = useContext(WizardContext);
  if (!context) throw new Error('useWizard outside the course wizard.');
  return context;
};

/** Re-renders when the course's structure or a lesson's state changes, not on every keystroke. */
export const useDraftSnapshot = (store: TDraftStore) => {
  useSyncExternalStore(store.subscribe, store.statesVersion);
  return useSyncExternalStore(store.subscribe, store.snapshot);
};
