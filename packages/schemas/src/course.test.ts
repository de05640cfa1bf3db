import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import {
  COURSE_COPY_SUFFIX,
  DEFAULT_ANSWER_RESPONSE,
  ZAnswerSchema,
  ZAssessmentSchema,
  ZCourseIntroSchema,
  ZCourseUpdateRequestSchema,
  ZCreateCourseRequestSchema,
  ZDistributionSchema,
  ZLessonMediaSchema,
  ZLessonSchema,
  ZListCoursesQuerySchema,
  areAnswersSimilar,
  cloneCourseName,
  deliveryCalendarDate,
  deliveryDateWindow,
  normalizeAnswer,
  publishCheck,
  publishMessage,
  publishProblemsToFieldErrors,
  stripHtml,
  toPublishCourse,
  validateDeliveryDate,
} from './course.ts';
import { addCalendarDays, addCalendarMonths, isCalendarDate } from './course-distribution.ts';
import { MESSAGES } from './messages.ts';

/** Every issue as `path → messages`, the shape the API sends in `errors`. */
const errorsOf = (schema: z.ZodType, input: unknown): Record<string, string[]> => {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    (errors[issue.path.map(String).join('.')] ??= []).push(issue.message);
  }
  return errors;
};

const chars = (count: number, char = 'a') => char.repeat(count);

const answer = (text: string, correct = false, response = 'Feedback.') => ({
  text,
  correct,
  response,
});

const assessment = (overrides: Record<string, unknown> = {}) => ({
  question: 'Which one?',
  type: 'multiple_choice',
  mandatory: true,
  answers: [answer('Alpha', true), answer('Beta')],
  thank_you_message: null,
  ...overrides,
});

const lesson = (day: number, language: string, overrides: Record<string, unknown> = {}) => ({
  day,
  language,
  title: `Day ${day} ${language}`,
  topic_intro: 'Intro',
  topic_content: '<p>Content</p>',
  learning_minutes: 5,
  media: null,
  assessment: assessment(),
  ...overrides,
});

const LIST = '0b9a4c1e-5f6d-4e7a-8b9c-0d1e2f3a4b5c';

const courseBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Sales basics',
  description: 'A short course.',
  languages: [
    { short_name: 'en', is_primary: true },
    { short_name: 'it', is_primary: false },
  ],
  lessons: [lesson(1, 'en'), lesson(1, 'it'), lesson(2, 'en'), lesson(2, 'it')],
  distribution: { start_date: '2026-11-23', channels: ['slack'] },
  learners_lists: [LIST],
  ...overrides,
});

// The app's test clock starts here: 10:00 in Rome on 22 November 2026.
const NOW = new Date('2026-11-22T09:00:00.000Z');

describe('stripHtml', () => {
  it('removes tags and decodes entities', () => {
    expect(stripHtml('<p>Hello <b>world</b> &amp; <i>more</i>&#33; &#x41;&lt;</p>')).toBe(
      'Hello world & more! A<',
    );
  });

  it('drops script and style bodies and comments', () => {
    expect(stripHtml('<style>p{}</style><script>alert(1)</script><!-- x -->Text')).toBe('Text');
  });

  it('leaves nothing of an empty editor paragraph', () => {
    expect(stripHtml('<p><br></p>')).toBe('');
    expect(stripHtml('<p>&nbsp;</p>')).toBe('');
  });

  it('keeps a lone less-than sign that opens no tag', () => {
    expect(stripHtml('1 < 2')).toBe('1 < 2');
  });
});

describe('similar answers', () => {
  it('ignores case, accents, punctuation and extra whitespace', () => {
    expect(normalizeAnswer('  Caffè,   LATTE! ')).toBe('caffe latte');
    expect(areAnswersSimilar('Yes!', 'yes')).toBe(true);
    expect(areAnswersSimilar('Über  alles', 'uber alles.')).toBe(true);
  });

  it('tells different answers apart', () => {
    expect(areAnswersSimilar('Paris', 'Rome')).toBe(false);
    expect(areAnswersSimilar('x+1', 'x 1')).toBe(false);
  });

  it('compares answers made only of punctuation by their punctuation', () => {
    expect(areAnswersSimilar('?', '!')).toBe(false);
    expect(areAnswersSimilar('?!', '?!')).toBe(true);
  });
});

describe('ZCourseIntroSchema', () => {
  const valid = { name: 'Course', description: 'About it.' };

  it('accepts a name and description, category optional', () => {
    expect(ZCourseIntroSchema.parse(valid)).toEqual({ ...valid, category: undefined });
    expect(ZCourseIntroSchema.parse({ ...valid, category: 'Sales' }).category).toBe('Sales');
  });

  it('clears an empty category', () => {
    expect(ZCourseIntroSchema.parse({ ...valid, category: '' }).category).toBeNull();
    expect(ZCourseIntroSchema.parse({ ...valid, category: null }).category).toBeNull();
  });

  it('requires the description with its message', () => {
    expect(errorsOf(ZCourseIntroSchema, { name: 'Course' })).toEqual({
      description: ['The description is required.'],
    });
    expect(errorsOf(ZCourseIntroSchema, { ...valid, description: '   ' })).toEqual({
      description: [MESSAGES.descriptionRequired],
    });
  });

  it('limits the description to 200 characters', () => {
    expect(errorsOf(ZCourseIntroSchema, { ...valid, description: chars(200) })).toEqual({});
    expect(errorsOf(ZCourseIntroSchema, { ...valid, description: chars(201) })).toEqual({
      description: ['The description may not be greater than 200 characters.'],
    });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(errorsOf(ZCourseIntroSchema, { ...valid, description: chars(200, '😀') })).toEqual({});
  });

  it('requires the name and limits it to 255 characters', () => {
    expect(errorsOf(ZCourseIntroSchema, { ...valid, name: '' })).toEqual({
      name: [MESSAGES.nameRequired],
    });
    expect(errorsOf(ZCourseIntroSchema, { ...valid, name: chars(255) })).toEqual({});
    expect(errorsOf(ZCourseIntroSchema, { ...valid, name: chars(256) })).toEqual({
      name: [MESSAGES.nameMax],
    });
  });

  it('limits the category to 255 characters', () => {
    expect(errorsOf(ZCourseIntroSchema, { ...valid, category: chars(255) })).toEqual({});
    expect(errorsOf(ZCourseIntroSchema, { ...valid, category: chars(256) })).toEqual({
      category: [MESSAGES.categoryMax],
    });
  });

  it('takes the primary language on create, refusing an unknown one', () => {
    expect(ZCreateCourseRequestSchema.parse({ ...valid, language: 'it' }).language).toBe('it');
    expect(errorsOf(ZCreateCourseRequestSchema, { ...valid, language: 'fr' })).toEqual({
      language: [MESSAGES.languageUnknown],
    });
  });
});

describe('ZAnswerSchema', () => {
  it('pre-fills an empty, null or missing response with the standard feedback', () => {
    expect(ZAnswerSchema.parse({ text: 'A', response: '' }).response).toBe(DEFAULT_ANSWER_RESPONSE);
    expect(ZAnswerSchema.parse({ text: 'A', response: '  ' }).response).toBe(
      DEFAULT_ANSWER_RESPONSE,
    );
    expect(ZAnswerSchema.parse({ text: 'A', response: null }).response).toBe(
      DEFAULT_ANSWER_RESPONSE,
    );
    expect(ZAnswerSchema.parse({ text: 'A' })).toEqual({
      text: 'A',
      correct: false,
      response: 'Thank you for your answer.',
    });
  });

  it('requires the text and limits it to 100 characters', () => {
    expect(errorsOf(ZAnswerSchema, { text: '' })).toEqual({ text: [MESSAGES.answerRequired] });
    expect(errorsOf(ZAnswerSchema, { text: chars(100) })).toEqual({});
    expect(errorsOf(ZAnswerSchema, { text: chars(101) })).toEqual({ text: [MESSAGES.answerMax] });
  });

  it('limits the response to 300 characters', () => {
    expect(errorsOf(ZAnswerSchema, { text: 'A', response: chars(300) })).toEqual({});
    expect(errorsOf(ZAnswerSchema, { text: 'A', response: chars(301) })).toEqual({
      response: [MESSAGES.responseMax],
    });
  });

  it('refuses a correct flag that is not a boolean', () => {
    expect(errorsOf(ZAnswerSchema, { text: 'A', correct: 'yes' })).toEqual({
      correct: [MESSAGES.booleanInvalid],
    });
  });
});

describe('ZAssessmentSchema', () => {
  it('accepts a multiple choice question and defaults mandatory to true', () => {
    const { mandatory: _mandatory, thank_you_message: _thanks, ...rest } = assessment();
    const parsed = ZAssessmentSchema.parse(rest);
    expect(parsed.mandatory).toBe(true);
    expect(parsed.thank_you_message).toBeNull();
  });

  it('requires the question and limits it to 300 characters', () => {
    expect(errorsOf(ZAssessmentSchema, assessment({ question: ' ' }))).toEqual({
      question: [MESSAGES.questionRequired],
    });
    expect(errorsOf(ZAssessmentSchema, assessment({ question: chars(300) }))).toEqual({});
    expect(errorsOf(ZAssessmentSchema, assessment({ question: chars(301) }))).toEqual({
      question: [MESSAGES.questionMax],
    });
  });

  it('refuses an unknown type', () => {
    expect(errorsOf(ZAssessmentSchema, assessment({ type: 'essay' }))).toEqual({
      type: [MESSAGES.assessmentTypeInvalid],
    });
  });

  it('allows up to 11 answers', () => {
    const answers = (count: number) =>
      Array.from({ length: count }, (_, index) => answer(`Answer ${index + 1}`, index === 0));
    expect(errorsOf(ZAssessmentSchema, assessment({ answers: answers(11) }))).toEqual({});
    expect(errorsOf(ZAssessmentSchema, assessment({ answers: answers(12) }))).toEqual({
      answers: [MESSAGES.answersMax],
    });
  });

  it('needs two answers and a correct one for multiple choice', () => {
    expect(errorsOf(ZAssessmentSchema, assessment({ answers: [answer('Only', true)] }))).toEqual({
      answers: [MESSAGES.answersMin],
    });
    expect(
      errorsOf(ZAssessmentSchema, assessment({ answers: [answer('A'), answer('B')] })),
    ).toEqual({
      answers: ['One choice option in assessment question should be marked as a correct answer.'],
    });
  });

  it('accepts several correct answers for multiple choice', () => {
    const answers = [answer('A', true), answer('B', true), answer('C')];
    expect(errorsOf(ZAssessmentSchema, assessment({ answers }))).toEqual({});
  });

  it('needs exactly two answers with exactly one correct for true/false', () => {
    const trueFalse = (answers: unknown[]) => assessment({ type: 'true_false', answers });
    expect(errorsOf(ZAssessmentSchema, trueFalse([answer('True', true), answer('False')]))).toEqual(
      {},
    );
    expect(
      errorsOf(ZAssessmentSchema, trueFalse([answer('True', true), answer('False'), answer('X')])),
    ).toEqual({ answers: [MESSAGES.trueFalseAnswers] });
    expect(errorsOf(ZAssessmentSchema, trueFalse([answer('True'), answer('False')]))).toEqual({
      answers: [MESSAGES.oneCorrectAnswer],
    });
    expect(
      errorsOf(ZAssessmentSchema, trueFalse([answer('True', true), answer('False', true)])),
    ).toEqual({ answers: [MESSAGES.trueFalseOneCorrect] });
  });

  it('refuses similar answers at the later one', () => {
    const answers = [answer('Paris', true), answer('Rome'), answer(' paris! ')];
    expect(errorsOf(ZAssessmentSchema, assessment({ answers }))).toEqual({
      'answers.2.text': ['Assessment answers can not be similar.'],
    });
  });

  it('lets an open answer question have no answers', () => {
    expect(errorsOf(ZAssessmentSchema, assessment({ type: 'open_answer', answers: [] }))).toEqual(
      {},
    );
    expect(ZAssessmentSchema.parse({ question: 'Why?', type: 'open_answer' }).answers).toEqual([]);
  });

  it('limits the thank-you message to 300 characters', () => {
    expect(errorsOf(ZAssessmentSchema, assessment({ thank_you_message: chars(300) }))).toEqual({});
    expect(errorsOf(ZAssessmentSchema, assessment({ thank_you_message: chars(301) }))).toEqual({
      thank_you_message: [MESSAGES.thankYouMessageMax],
    });
  });
});

describe('ZLessonMediaSchema', () => {
  it('takes an http(s) link, or an upload path', () => {
    expect(errorsOf(ZLessonMediaSchema, { type: 'link', url: 'https://example.com/v' })).toEqual(
      {},
    );
    expect(errorsOf(ZLessonMediaSchema, { type: 'upload', url: '/uploads/media/a.mp4' })).toEqual(
      {},
    );
  });

  it('refuses other links and types', () => {
    expect(errorsOf(ZLessonMediaSchema, { type: 'link', url: 'javascript:alert(1)' })).toEqual({
      url: [MESSAGES.mediaUrlInvalid],
    });
    expect(errorsOf(ZLessonMediaSchema, { type: 'link', url: '/relative' })).toEqual({
      url: [MESSAGES.mediaUrlInvalid],
    });
    expect(errorsOf(ZLessonMediaSchema, { type: 'video', url: 'https://example.com' })).toEqual({
      type: [MESSAGES.mediaTypeInvalid],
    });
  });
});

describe('ZLessonSchema', () => {
  it('accepts a lesson and defaults media and assessment to null', () => {
    const { media: _media, assessment: _assessment, ...rest } = lesson(1, 'en');
    expect(ZLessonSchema.parse(rest)).toMatchObject({ media: null, assessment: null });
  });

  it.each([
    [0, false],
    [1, true],
    [30, true],
    [31, false],
    [1.5, false],
  ])('day %s valid: %s', (day, ok) => {
    expect(errorsOf(ZLessonSchema, lesson(day, 'en'))).toEqual(
      ok ? {} : { day: [MESSAGES.lessonDayRange] },
    );
  });

  it('refuses a language outside en, it, de', () => {
    expect(errorsOf(ZLessonSchema, lesson(1, 'fr'))).toEqual({
      language: [MESSAGES.languageUnknown],
    });
  });

  it('requires the title and limits it to 140 characters', () => {
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { title: '' }))).toEqual({
      title: ['The lesson title is required.'],
    });
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { title: chars(140) }))).toEqual({});
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { title: chars(141) }))).toEqual({
      title: [MESSAGES.lessonTitleMax],
    });
  });

  it('requires the topic intro and limits it to 600 characters', () => {
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_intro: undefined }))).toEqual({
      topic_intro: [MESSAGES.topicIntroRequired],
    });
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_intro: chars(600) }))).toEqual({});
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_intro: chars(601) }))).toEqual({
      topic_intro: [MESSAGES.topicIntroMax],
    });
  });

  it('requires topic content with text once HTML is stripped', () => {
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_content: '<p><br></p>' }))).toEqual({
      topic_content: [MESSAGES.topicContentRequired],
    });
  });

  it('limits topic content to 1200 characters of text, whatever its markup', () => {
    const html = (count: number) => `<p><strong>${chars(count)}</strong></p>`;
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_content: html(1200) }))).toEqual({});
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_content: html(1201) }))).toEqual({
      topic_content: [MESSAGES.topicContentMax],
    });
    // 1200 characters of text in far more than 1200 characters of HTML.
    const marked = Array.from({ length: 600 }, () => '<em>ab</em>').join('');
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { topic_content: marked }))).toEqual({});
  });

  it.each([
    [0, false],
    [1, true],
    [300, true],
    [301, false],
    [2.5, false],
    ['5', false],
  ])('learning_minutes %s valid: %s', (minutes, ok) => {
    expect(errorsOf(ZLessonSchema, lesson(1, 'en', { learning_minutes: minutes }))).toEqual(
      ok ? {} : { learning_minutes: ['Learning minutes must be between 1 and 300.'] },
    );
  });

  it('reports nested answer problems by their path', () => {
    const answers = [answer('A', true), answer('B'), answer('')];
    expect(
      errorsOf(ZLessonSchema, lesson(1, 'en', { assessment: assessment({ answers }) })),
    ).toEqual({ 'assessment.answers.2.text': [MESSAGES.answerRequired] });
  });
});

describe('ZDistributionSchema', () => {
  it('fills the defaults of spec §3', () => {
    expect(ZDistributionSchema.parse({})).toEqual({
      repeat_period: 'Day',
      repeat_every: 1,
      time: '08:00',
      start_date: null,
      channels: [],
      disabled_enrolment_opt_in: false,
      exclusion_days: [],
      learner_time_zone: false,
      repeat_questions: false,
      target_retention: 90,
      // Issue 28's reminder policy: one reminder after 24 hours, a pause after 3 unanswered.
      reminder_count: 1,
      reminder_interval_hours: 24,
      auto_pause_after: 3,
      enrollment_close_time: null,
    });
  });

  it.each([
    [70, true],
    [97, true],
    [69, false],
    [98, false],
    [90.5, false],
    ['90', false],
  ])('target retention %s valid: %s', (target_retention, ok) => {
    expect(errorsOf(ZDistributionSchema, { target_retention })).toEqual(
      ok ? {} : { target_retention: [MESSAGES.targetRetentionInvalid] },
    );
  });

  it.each([
    ['00:00', true],
    ['23:59', true],
    ['24:00', false],
    ['8:00', false],
    ['08:60', false],
  ])('time %s valid: %s', (time, ok) => {
    expect(errorsOf(ZDistributionSchema, { time })).toEqual(
      ok ? {} : { time: [MESSAGES.deliveryTimeInvalid] },
    );
  });

  it('takes real calendar dates only', () => {
    expect(errorsOf(ZDistributionSchema, { start_date: '2028-02-29' })).toEqual({});
    expect(errorsOf(ZDistributionSchema, { start_date: '2027-02-29' })).toEqual({
      start_date: [MESSAGES.deliveryDateInvalid],
    });
    expect(errorsOf(ZDistributionSchema, { start_date: '23-11-2026' })).toEqual({
      start_date: [MESSAGES.deliveryDateInvalid],
    });
  });

  it('takes known channels once each', () => {
    expect(
      ZDistributionSchema.parse({ channels: ['slack', 'slack', 'whatsapp'] }).channels,
    ).toEqual(['slack', 'whatsapp']);
    expect(errorsOf(ZDistributionSchema, { channels: ['telegram'] })).toEqual({
      'channels.0': [MESSAGES.channelUnknown],
    });
  });

  it('skips only saturdays and sundays', () => {
    expect(errorsOf(ZDistributionSchema, { exclusion_days: ['saturday', 'sunday'] })).toEqual({});
    expect(errorsOf(ZDistributionSchema, { exclusion_days: ['monday'] })).toEqual({
      'exclusion_days.0': [MESSAGES.exclusionDayInvalid],
    });
  });

  it('checks repeat settings and the enrollment close time', () => {
    expect(errorsOf(ZDistributionSchema, { repeat_every: 0 })).toEqual({
      repeat_every: [MESSAGES.repeatEveryMin],
    });
    expect(errorsOf(ZDistributionSchema, { repeat_period: 'Year' })).toEqual({
      repeat_period: [MESSAGES.repeatPeriodInvalid],
    });
    expect(errorsOf(ZDistributionSchema, { enrollment_close_time: '2026-12-01T18:30' })).toEqual(
      {},
    );
    expect(errorsOf(ZDistributionSchema, { enrollment_close_time: '2026-12-01 18:30' })).toEqual({
      enrollment_close_time: [MESSAGES.enrollmentCloseTimeInvalid],
    });
  });
});

describe('validateDeliveryDate', () => {
  it('requires a date', () => {
    expect(validateDeliveryDate(null, NOW)).toBe('Select delivery date of the course.');
    expect(validateDeliveryDate('', NOW)).toBe(MESSAGES.deliveryDateRequired);
    expect(validateDeliveryDate(undefined, NOW)).toBe(MESSAGES.deliveryDateRequired);
  });

  it('refuses a malformed date', () => {
    expect(validateDeliveryDate('2026-13-01', NOW)).toBe(MESSAGES.deliveryDateInvalid);
  });

  it.each([
    ['2026-11-21', false],
    ['2026-11-22', false], // today
    ['2026-11-23', true], // tomorrow
    ['2027-02-22', true], // 3 months ahead
    ['2027-02-23', false], // 3 months and a day
  ])('on 22 Nov 2026, %s allowed: %s', (date, ok) => {
    expect(validateDeliveryDate(date, NOW)).toBe(
      ok ? null : 'Date must be in range from tomorrow to next 3 months.',
    );
  });

  it('counts days in Rome, where spring-forward night is already the next day', () => {
    // 23:30 UTC on 28 March is 00:30 on 29 March in Rome (CET, DST starts at 02:00).
    const now = new Date('2026-03-28T23:30:00.000Z');
    expect(deliveryCalendarDate(now)).toBe('2026-03-29');
    expect(validateDeliveryDate('2026-03-29', now)).toBe(MESSAGES.deliveryDateRange);
    expect(validateDeliveryDate('2026-03-30', now)).toBeNull();
    expect(validateDeliveryDate('2026-06-29', now)).toBeNull();
    expect(validateDeliveryDate('2026-06-30', now)).toBe(MESSAGES.deliveryDateRange);
  });

  it('counts days in Rome across the autumn change (CEST, UTC+2)', () => {
    const now = new Date('2026-10-24T22:30:00.000Z');
    expect(deliveryDateWindow(now)).toEqual({ from: '2026-10-26', to: '2027-01-25' });
    expect(validateDeliveryDate('2026-10-25', now)).toBe(MESSAGES.deliveryDateRange);
    // One hour later by the clock, still 25 October in Rome after the change to CET.
    expect(deliveryCalendarDate(new Date('2026-10-25T22:59:00.000Z'))).toBe('2026-10-25');
    expect(deliveryCalendarDate(new Date('2026-10-25T23:00:00.000Z'))).toBe('2026-10-26');
  });

  it('ends the window on the last day of a shorter month', () => {
    const now = new Date('2026-11-30T12:00:00.000Z');
    expect(validateDeliveryDate('2027-02-28', now)).toBeNull();
    expect(validateDeliveryDate('2027-03-01', now)).toBe(MESSAGES.deliveryDateRange);
  });

  it('does calendar arithmetic', () => {
    expect(addCalendarDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addCalendarMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
  });
});

describe('ZCourseUpdateRequestSchema', () => {
  it('accepts a full course and fills the defaults', () => {
    const parsed = ZCourseUpdateRequestSchema.parse(courseBody());
    expect(parsed.lessons).toHaveLength(4);
    expect(parsed.distribution).toMatchObject({ time: '08:00', repeat_period: 'Day' });
    expect(parsed.learners_lists).toEqual([LIST]);
  });

  it('ignores uuid and image keys', () => {
    const parsed = ZCourseUpdateRequestSchema.parse({ ...courseBody(), uuid: 'x', image: 'y' });
    expect(parsed).not.toHaveProperty('uuid');
    expect(parsed).not.toHaveProperty('image');
  });

  it('needs exactly one primary language', () => {
    const none = courseBody({ languages: [{ short_name: 'en' }, { short_name: 'it' }] });
    expect(errorsOf(ZCourseUpdateRequestSchema, none)).toEqual({
      languages: [MESSAGES.primaryLanguageRequired],
    });
    const two = courseBody({
      languages: [
        { short_name: 'en', is_primary: true },
        { short_name: 'it', is_primary: true },
      ],
    });
    expect(errorsOf(ZCourseUpdateRequestSchema, two)).toEqual({
      languages: [MESSAGES.primaryLanguageRequired],
    });
  });

  it('refuses a language twice', () => {
    const body = courseBody({
      languages: [
        { short_name: 'en', is_primary: true },
        { short_name: 'en', is_primary: false },
      ],
      lessons: [lesson(1, 'en')],
    });
    expect(errorsOf(ZCourseUpdateRequestSchema, body)).toEqual({
      'languages.1.short_name': [MESSAGES.languageDuplicate],
    });
  });

  it('refuses lessons outside the course languages, or twice for a day and language', () => {
    const body = courseBody({
      languages: [{ short_name: 'en', is_primary: true }],
      lessons: [lesson(1, 'en'), lesson(1, 'de'), lesson(1, 'en')],
    });
    expect(errorsOf(ZCourseUpdateRequestSchema, body)).toEqual({
      'lessons.1.language': [MESSAGES.lessonLanguageNotInCourse],
      'lessons.2.day': [MESSAGES.lessonDuplicate],
    });
  });

  it('reports nested problems by dotted path', () => {
    const answers = [answer('A', true), answer('B'), answer(chars(101))];
    const body = courseBody();
    body.lessons[0] = lesson(1, 'en', { assessment: assessment({ answers }) });
    expect(errorsOf(ZCourseUpdateRequestSchema, body)).toEqual({
      'lessons.0.assessment.answers.2.text': [MESSAGES.answerMax],
    });
  });

  it('checks learners lists and status', () => {
    expect(
      errorsOf(
        ZCourseUpdateRequestSchema,
        courseBody({ learners_lists: ['nope'], status: 'active' }),
      ),
    ).toEqual({
      'learners_lists.0': [MESSAGES.learnersListUnknown],
      status: [MESSAGES.courseStatusInvalid],
    });
  });

  it('lets a draft keep no lessons and no distribution', () => {
    const body = {
      name: 'N',
      description: 'D',
      languages: [{ short_name: 'en', is_primary: true }],
    };
    expect(ZCourseUpdateRequestSchema.parse(body)).toMatchObject({ lessons: [] });
  });
});

describe('publishCheck', () => {
  const check = (body: Record<string, unknown>, options: { hasLearnersLists?: boolean } = {}) =>
    publishCheck(toPublishCourse(body), { now: NOW, ...options });

  it('passes a complete course', () => {
    expect(check(courseBody())).toEqual([]);
  });

  it('needs at least one lesson, a date, a channel and a list', () => {
    const body = courseBody({ lessons: [], distribution: null, learners_lists: [] });
    expect(check(body).map((problem) => [problem.path, problem.message])).toEqual([
      ['lessons', MESSAGES.lessonsMin],
      ['distribution.start_date', 'Select delivery date of the course.'],
      ['distribution.channels', 'Select delivery channel of the course.'],
      ['learners_lists', 'Select at least one learner.'],
    ]);
  });

  it('asks to create a learners list when the company has none', () => {
    expect(check(courseBody({ learners_lists: [] }), { hasLearnersLists: false })).toEqual([
      {
        path: 'learners_lists',
        message: 'Please create at least one learners list to proceed.',
        key: 'learnersListRequired',
      },
    ]);
  });

  it('refuses a start date outside the window', () => {
    const body = courseBody({ distribution: { start_date: '2026-11-22', channels: ['slack'] } });
    expect(check(body)).toEqual([
      {
        path: 'distribution.start_date',
        message: 'Date must be in range from tomorrow to next 3 months.',
        key: 'deliveryDateRange',
      },
    ]);
  });

  it('names the day and language of a missing lesson, gaps included', () => {
    const body = courseBody({ lessons: [lesson(1, 'en'), lesson(1, 'it'), lesson(3, 'en')] });
    expect(check(body).map((problem) => problem.message)).toEqual([
      'Day 2 (en): the lesson is missing.',
      'Day 2 (it): the lesson is missing.',
      'Day 3 (it): the lesson is missing.',
    ]);
  });

  it('names day and language of a lesson field, at the lesson path', () => {
    const body = courseBody();
    body.lessons[3] = lesson(2, 'it', { title: '' });
    expect(check(body)).toEqual([
      {
        path: 'lessons.3.title',
        message: 'Day 2 (it): the lesson title is required.',
        key: 'lessonTitleRequired',
        day: 2,
        language: 'it',
      },
    ]);
  });

  it('names the option of an answer problem', () => {
    const body = courseBody({
      lessons: [lesson(1, 'en'), lesson(1, 'it'), lesson(2, 'en'), lesson(2, 'it')].concat([
        lesson(3, 'en', {
          assessment: assessment({
            answers: [answer('A', true), answer('  '), answer('C', false, chars(301))],
          }),
        }),
        lesson(3, 'it'),
      ]),
    });
    expect(check(body).map((problem) => [problem.path, problem.message])).toEqual([
      ['lessons.4.assessment.answers.1.text', 'Day 3 (en), option 2: the answer text is required.'],
      [
        'lessons.4.assessment.answers.2.response',
        'Day 3 (en), option 3: the answer response may not be greater than 300 characters.',
      ],
    ]);
  });

  it('reports a missing correct answer, similar answers and an empty question', () => {
    const body = courseBody();
    body.lessons[0] = lesson(1, 'en', {
      assessment: assessment({ question: '', answers: [answer('Yes'), answer('yes.')] }),
    });
    expect(check(body).map((problem) => problem.message)).toEqual([
      'Day 1 (en): the assessment question is required.',
      'Day 1 (en): one choice option in assessment question should be marked as a correct answer.',
      'Day 1 (en), option 2: assessment answers can not be similar.',
    ]);
  });

  it('reports topic content and learning minutes limits', () => {
    const body = courseBody();
    body.lessons[2] = lesson(2, 'en', { topic_content: '<p> </p>', learning_minutes: 301 });
    expect(check(body).map((problem) => problem.message)).toEqual([
      'Day 2 (en): the topic content is required.',
      'Day 2 (en): learning minutes must be between 1 and 300.',
    ]);
  });

  it('refuses lessons past day 30', () => {
    const body = courseBody({ languages: [{ short_name: 'en', is_primary: true }] });
    body.lessons = Array.from({ length: 30 }, (_, index) => lesson(index + 1, 'en'));
    expect(check(body)).toEqual([]);
    body.lessons.push(lesson(31, 'en'));
    expect(check(body)).toEqual([
      {
        path: 'lessons.30.day',
        message: 'Lesson 31: the day must be between 1 and 30.',
        key: 'lessonDayRange',
        lesson: 31,
      },
    ]);
  });

  it('reports language problems of the course', () => {
    const body = courseBody({ languages: [{ short_name: 'en', is_primary: false }] });
    body.lessons = [lesson(1, 'en'), lesson(1, 'it')];
    expect(check(body).map((problem) => [problem.path, problem.message])).toEqual([
      ['languages', MESSAGES.primaryLanguageRequired],
      ['lessons.1.language', 'Day 1 (it): the lesson language is not one of the course languages.'],
    ]);
  });

  it('reads a Course resource as well as a request body', () => {
    const course = {
      languages: [{ uuid: 'x', name: 'English', short_name: 'en', is_primary: true }],
      lessons: [{ uuid: 'y', ...lesson(1, 'en') }],
      distribution: { start_date: '2026-12-01', channels: ['slack'] },
      learners_lists: [{ uuid: LIST, name: 'Sales' }],
    };
    expect(publishCheck(course, { now: NOW })).toEqual([]);
  });

  it('survives a body of the wrong shape', () => {
    const problems = publishCheck(toPublishCourse('garbage'), { now: NOW });
    expect(problems.map((problem) => problem.path)).toEqual([
      'lessons',
      'languages',
      'distribution.start_date',
      'distribution.channels',
      'learners_lists',
    ]);
  });

  it('groups problems by path for the 422 body', () => {
    expect(
      publishProblemsToFieldErrors([
        { path: 'lessons', message: 'a' },
        { path: 'lessons', message: 'b' },
        { path: 'learners_lists', message: 'c' },
      ]),
    ).toEqual({ lessons: ['a', 'b'], learners_lists: ['c'] });
  });

  it('composes messages', () => {
    expect(
      publishMessage('The answer text is required.', { day: 3, language: 'en', option: 2 }),
    ).toBe('Day 3 (en), option 2: the answer text is required.');
    expect(publishMessage('Select at least one learner.', {})).toBe('Select at least one learner.');
  });
});

describe('ZListCoursesQuerySchema', () => {
  it('paginates live courses by default', () => {
    expect(ZListCoursesQuerySchema.parse({})).toEqual({
      page: 1,
      paginate: true,
      archived: false,
    });
  });

  it('reads flags and numbers from query strings', () => {
    expect(
      ZListCoursesQuerySchema.parse({ paginate: '0', archived: 'true', page: '3', per_page: '5' }),
    ).toEqual({ paginate: false, archived: true, page: 3, per_page: 5 });
    expect(ZListCoursesQuerySchema.safeParse({ archived: 'maybe' }).success).toBe(false);
  });
});

describe('cloneCourseName', () => {
  it('adds the copy suffix', () => {
    expect(cloneCourseName('Sales')).toBe('Sales (copy)');
  });

  it('shortens a long name to stay within 255 characters', () => {
    const name = cloneCourseName(chars(255));
    expect(name).toHaveLength(255);
    expect(name.endsWith(COURSE_COPY_SUFFIX)).toBe(true);
  });
});
