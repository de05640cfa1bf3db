import { ROUTES } from '../config.ts';

export type TCreateCourseOption = 'scratch' | 'import';

const TARGETS: Record<TCreateCourseOption, string> = {
  scratch: ROUTES.coursesCreate,
  import: ROUTES.coursesImport,
};

const within = (pathname: string, base: string) =>
  pathname === base || pathname.startsWith(`${base}/`);

/**
 * Where an option of the create-course modal goes (spec §2): /courses/create or /courses/import;
 * null (stay) when the user is already in that route family, e.g. in a wizard step.
 */
export const createCourseTarget = (
  pathname: string,
  option: TCreateCourseOption,
): string | null => {
  const target = TARGETS[option];
  return within(pathname, target) ? null : target;
};
