import { describe, expect, it } from 'vitest';

import { createCourseTarget } from './create-course.ts';

describe('createCourseTarget (spec §2 create-course modal)', () => {
  it('goes to the wizard or the AI import', () => {
    expect(createCourseTarget('/dashboard', 'scratch')).toBe('/courses/create');
    expect(createCourseTarget('/learners', 'import')).toBe('/courses/import');
    expect(createCourseTarget('/courses/import', 'scratch')).toBe('/courses/create');
    expect(createCourseTarget('/courses/create/content', 'import')).toBe('/courses/import');
  });

  it('does nothing when already in that route family', () => {
    expect(createCourseTarget('/courses/create', 'scratch')).toBeNull();
    expect(createCourseTarget('/courses/create/delivery', 'scratch')).toBeNull();
    expect(createCourseTarget('/courses/import', 'import')).toBeNull();
  });

  it('does not mistake a look-alike path for the family', () => {
    expect(createCourseTarget('/courses/created', 'scratch')).toBe('/courses/create');
  });
});
