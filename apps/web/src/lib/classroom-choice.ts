import type { ClassroomChoiceStore } from '@ccp/data-provider';

import { CLASSROOM_STORAGE_PREFIX } from '../config.ts';

/** Each user's chosen classroom in localStorage, so it survives sign-outs and other tabs. */
export const classroomChoiceStore: ClassroomChoiceStore = {
  get: (userUuid) => {
    try {
      return window.localStorage.getItem(`${CLASSROOM_STORAGE_PREFIX}${userUuid}`);
    } catch {
      return null;
    }
  },
  set: (userUuid, classroomUuid) => {
    try {
      const key = `${CLASSROOM_STORAGE_PREFIX}${userUuid}`;
      if (classroomUuid) window.localStorage.setItem(key, classroomUuid);
      else window.localStorage.removeItem(key);
    } catch {
      // Private mode without storage: the choice lasts until the tab closes (the session keeps it).
    }
  },
};
