import type { TCourse } from '@ccp/schemas';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

import {
  courseToFile,
  describeChange,
  diffCourseFiles,
  fileToRequest,
  filePathOf,
} from './course-file.ts';
import { ZCourseFileSchema } from './course-file.ts';
import { courseFileText } from './pull-push.ts';

const lesson = (day: number, language: string, title: string) => ({
  uuid: `l-${day}-${language}`,
  day,
  language,
  title,
  topic_intro: 'Intro',
  topic_content: '<p>Line one</p>\n<p>Line two</p>',
  learning_minutes: 5,
  media: null,
  assessment: {
    question: 'Why?',
    type: 'multiple_choice',
    mandatory: true,
    answers: [
      { text: 'Because', correct: true, response: 'Right.' },
      { text: 'No', correct: false, response: 'Not quite.' },
    ],
    thank_you_message: null,
  },
});

// Lessons and languages in the order a server might answer them: not the file's order.
const course = {
  uuid: '0b7c6a4e-5d1f-4c2a-9e3b-8f6d2a1c4e5f',
  name: 'Negotiation',
  description: 'How to agree.',
  category: null,
  status: 'draft',
  languages: [
    { uuid: 'x', name: 'Italiano', short_name: 'it', is_primary: false },
    { uuid: 'y', name: 'English', short_name: 'en', is_primary: true },
  ],
  lessons: [
    lesson(2, 'it', 'Due'),
    lesson(1, 'it', 'Uno'),
    lesson(2, 'en', 'Two'),
    lesson(1, 'en', 'One'),
  ],
  distribution: null,
  learners_lists: [
    { uuid: 'b', name: 'Team B' },
    { uuid: 'a', name: 'Team A' },
  ],
} as unknown as TCourse;

describe('course files', () => {
  it('write a course in a stable order that reads back to itself', () => {
    const file = courseToFile(course);
    expect(file.languages).toEqual(['en', 'it']);
    expect(file.learners_lists).toEqual(['Team A', 'Team B']);
    expect(file.days.map((day) => [day.day, Object.keys(day.lessons)])).toEqual([
      [1, ['en', 'it']],
      [2, ['en', 'it']],
    ]);
    const text = courseFileText(file);
    expect(text).toContain('topic_content: |-\n');
    expect(ZCourseFileSchema.parse(parse(text))).toEqual(file);
    expect(
      courseFileText(courseToFile({ ...course, lessons: [...course.lessons].reverse() })),
    ).toBe(text);
    expect(diffCourseFiles(file, ZCourseFileSchema.parse(parse(text)))).toEqual([]);
  });

  it('keep a course delivered in each learner’s own time zone; older files read as CET', () => {
    const distribution = {
      repeat_period: 'Day',
      repeat_every: 1,
      time: '08:00',
      start_date: '2026-12-01',
      channels: ['slack'],
      disabled_enrolment_opt_in: false,
      exclusion_days: [],
      learner_time_zone: true,
      enrollment_close_time: null,
    } as const;
    const file = courseToFile({ ...course, distribution } as unknown as TCourse);
    const read = ZCourseFileSchema.parse(parse(courseFileText(file)));
    expect(fileToRequest(read, []).distribution).toMatchObject({ learner_time_zone: true });
    const { learner_time_zone: _dropped, ...older } = distribution;
    expect(
      ZCourseFileSchema.parse({ ...file, distribution: older }).distribution?.learner_time_zone,
    ).toBe(false);
  });

  it('diff field by field, days keyed by their number', () => {
    const before = courseToFile(course);
    const after = structuredClone(before);
    after.days[1]!.lessons.it!.title = 'Secondo';
    after.days.push({ day: 3, lessons: { en: { ...before.days[0]!.lessons.en! } } });
    after.learners_lists = ['Team A'];
    const changes = diffCourseFiles(before, after).map(describeChange);
    expect(changes).toContain('~ days.2.it.title: "Due" → "Secondo"');
    expect(changes).toContain('+ days.3.en.title: "One"');
    expect(changes).toContain('~ learners_lists: ["Team A","Team B"] → ["Team A"]');
    expect(changes.some((change) => change.startsWith('~ days.1'))).toBe(false);
  });

  it('turn into the full-save body and name request errors by the file’s path', () => {
    const request = fileToRequest(courseToFile(course), ['a', 'b']);
    expect(request.languages).toEqual([
      { short_name: 'en', is_primary: true },
      { short_name: 'it', is_primary: false },
    ]);
    expect(request.lessons).toHaveLength(4);
    expect(request).toMatchObject({ status: 'draft', learners_lists: ['a', 'b'] });
    expect(filePathOf('lessons.1.title', request)).toBe('days[day 1].lessons.it.title');
    expect(filePathOf('name', request)).toBe('name');
  });
});
