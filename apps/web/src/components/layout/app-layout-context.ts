import type { TSubscription } from '@ccp/schemas';
import { createContext, useContext } from 'react';

export type TAppLayoutContext = {
  /** The company's plan, fetched on entering the authenticated layout (null while loading). */
  subscription: TSubscription | null;
  /** Opens the create-course modal (the top bar and the dashboard share it). */
  openCreateCourse: () => void;
};

export const AppLayoutContext = createContext<TAppLayoutContext>({
  subscription: null,
  openCreateCourse: () => undefined,
});

export const useAppLayout = () => useContext(AppLayoutContext);
