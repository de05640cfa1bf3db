import type { APIRequestContext } from '@playwright/test';

import { apiClassrooms, apiPostData } from './api.ts';

// Courses made through the API for a test to open in the wizard.

export type TApiLesson = {
  day: number;
  language: string;
  title: string;
  topic_intro: string;
  topic_content: string;
  learning_minutes: number;
  media: null;
  assessment: {
    question: string;
    type: 'multiple_choice';
    mandatory: boolean;
    answers: { text: string; correct: boolean; response: string }[];
    thank_you_message: null;
  } | null;
};

/** A complete lesson of `day` in `language`, with `answers` answers (the first correct). */
export const apiLesson = (day: number, language = 'en', answers = 2): TApiLesson => ({
  day,
  language,
  title: `Day ${day} (${language}): the first call`,
  topic_intro: `What day ${day} covers.`,
  topic_content: `<p>Open the call of day ${day} with a question.</p>`,
  learning_minutes: 5,
  media: null,
  assessment: {
    question: `How do you open the call of day ${day}?`,
    type: 'multiple_choice',
    mandatory: true,
    answers: Array.from({ length: answers }, (_, index) => ({
      text: `Option number ${index + 1} of day ${day}`,
      correct: index === 0,
      response: 'Thank you for your answer.',
    })),
    thank_you_message: null,
  },
});

/** A draft course in the account's first classroom with these languages and lessons. */
export const apiCourse = async (
  request: APIRequestContext,
  accessToken: string,
  course: {
    name: string;
    languages?: { short_name: string; is_primary: boolean }[];
    lessons: TApiLesson[];
  },
): Promise<{ uuid: string; classroomUuid: string }> => {
  const [classroom] = await apiClassrooms(request, accessToken);
  if (!classroom) throw new Error('The account has no classroom.');
  const base = `/api/v1/classrooms/${classroom.uuid}/courses`;
  const description = 'A course made by a browser test.';
  const created = await apiPostData<{ uuid: string }>(request, accessToken, base, {
    name: course.name,
    description,
  });
  await apiPostData(request, accessToken, `${base}/${created.uuid}`, {
    name: course.name,
    description,
    languages: course.languages ?? [{ short_name: 'en', is_primary: true }],
    lessons: course.lessons,
  });
  return { uuid: created.uuid, classroomUuid: classroom.uuid };
};
