import { INSIGHTS_COURSE_STORAGE_PREFIX } from '../../config.ts';

// The last course looked at on /insights, per classroom, so coming back shows it again.

export const rememberedCourse = (classroomUuid: string): string | null => {
  try {
    return window.localStorage.getItem(`${INSIGHTS_COURSE_STORAGE_PREFIX}${classroomUuid}`);
  } catch {
    return null;
  }
};

export const rememberCourse = (classroomUuid: string, courseUuid: string) => {
  try {
    window.localStorage.setItem(`${INSIGHTS_COURSE_STORAGE_PREFIX}${classroomUuid}`, courseUuid);
  } catch {
    // Without storage the choice lasts as long as the address.
  }
};
