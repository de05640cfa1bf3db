import type { TClassroom } from '@ccp/schemas';
import { createContext, useContext } from 'react';

export type TClassroomContext = {
  /** The company's classrooms (empty while loading or when they failed to load). */
  classrooms: readonly TClassroom[];
  /** The classroom the pages show: the user's choice, else the first (spec §1); null while loading. */
  current: TClassroom | null;
  loading: boolean;
  /** The classrooms could not be loaded ("Failed to fetch classrooms."). */
  failed: boolean;
  retry: () => void;
  select: (uuid: string) => void;
};

export const ClassroomContext = createContext<TClassroomContext>({
  classrooms: [],
  current: null,
  loading: true,
  failed: false,
  retry: () => undefined,
  select: () => undefined,
});

/** The current classroom and the switch between classrooms (top bar). */
export const useClassroom = () => useContext(ClassroomContext);

/** Refine `meta` that scopes a call to the current classroom (it is also in the query key). */
export const useClassroomMeta = (): { classroomUuid?: string } => {
  const { current } = useClassroom();
  return current ? { classroomUuid: current.uuid } : {};
};
