import type { TCourse } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { createDraftStore } from './draft.ts';
import type { TLessonDraft } from './draft.ts';

// Issue 27 item 5: a second language starts from the primary lessons' structure, not blank.

const lesson = (day: number, assessment: TCourse['lessons'][number]['assessment']) => ({
  uuid: `00000000-0000-4000-8000-00000000000${day}`,
  day,
  language: 'en',
  title: `Day ${day}`,
  topic_intro: 'Why it matters.',
  topic_content: '<p>The lesson.</p>',
  learning_minutes: 7 + day,
  media: { type: 'link' as const, url: `https://example.com/day-${day}` },
  assessment,
});

const course = (): TCourse => ({
  uuid: '00000000-0000-4000-8000-0000000000aa',
  name: 'Phishing',
  description: 'Spot it.',
  image: null,
  category: null,
  enrollment: null,
  status: 'draft',
  languages: [
    {
      uuid: '00000000-0000-4000-8000-0000000000e1',
      name: 'English',
      short_name: 'en',
      is_primary: true,
    },
  ],
  lessons: [
    lesson(1, {
      question: 'Which are signs of phishing?',
      type: 'multiple_choice',
      mandatory: false,
      answers: [
        { text: 'Urgency', correct: true, response: 'Yes.' },
        { text: 'Your name', correct: false, response: 'No.' },
        { text: 'A look-alike domain', correct: true, response: 'Yes.' },
      ],
      thank_you_message: 'Thanks!',
    }),
    lesson(2, {
      question: 'Banks never ask for your PIN by e-mail.',
      type: 'true_false',
      mandatory: true,
      answers: [
        { text: 'True', correct: true, response: 'Right.' },
        { text: 'False', correct: false, response: 'They never do.' },
      ],
      thank_you_message: null,
    }),
    lesson(3, {
      question: 'What will you check first?',
      type: 'open_answer',
      mandatory: true,
      answers: [],
      thank_you_message: null,
    }),
  ],
  lessons_count: 3,
  distribution: null,
  learners_lists: [],
  enrolments: 0,
  reached: 0,
  creator: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  scheduled_at: null,
  first_send_at: null,
  delivered_at: null,
  deleted_at: null,
});

const structure = (draft: TLessonDraft) => ({
  minutes: draft.learning_minutes,
  media: draft.media,
  type: draft.assessment?.type,
  mandatory: draft.assessment?.mandatory,
  answers: draft.assessment?.answers.map((answer) => [answer.text, answer.correct]),
});

describe('adding a language', () => {
  it('copies types, correct flags, minutes and media, and leaves the texts to write', () => {
    const store = createDraftStore(course());
    store.addLanguage('it', ['Vero', 'Falso']);

    expect(structure(store.lesson(1, 'it'))).toEqual({
      minutes: 8,
      media: { type: 'link', url: 'https://example.com/day-1' },
      type: 'multiple_choice',
      mandatory: false,
      answers: [
        ['', true],
        ['', false],
        ['', true],
      ],
    });
    // True/false labels in the lesson's language, not the interface's.
    expect(structure(store.lesson(2, 'it')).answers).toEqual([
      ['Vero', true],
      ['Falso', false],
    ]);
    expect(structure(store.lesson(3, 'it'))).toMatchObject({ type: 'open_answer', answers: [] });
    for (const day of [1, 2, 3]) {
      const italian = store.lesson(day, 'it');
      expect([italian.title, italian.topic_intro, italian.topic_content]).toEqual(['', '', '']);
      expect(italian.assessment?.question).toBe('');
    }
  });

  it('counts a copied lesson as not written: saving progress sends only the primary lessons', () => {
    const store = createDraftStore(course());
    store.addLanguage('it', ['Vero', 'Falso']);
    expect(store.state(1, 'it')).toBe('empty');
    expect(store.requestBody('-').body.lessons.map((entry) => entry.language)).toEqual([
      'en',
      'en',
      'en',
    ]);

    // A correct flag changed, still no text: still not written.
    const { day: _day, language: _language, ...values } = store.lesson(1, 'it');
    store.setLesson(1, 'it', values);
    expect(store.state(1, 'it')).toBe('empty');

    // Once a text is written it is a lesson of its own, checked and sent.
    store.setLesson(1, 'it', { ...values, title: 'Giorno 1' });
    expect(store.state(1, 'it')).toBe('invalid');
    expect(store.requestBody('-').body.lessons).toHaveLength(4);
  });
});

describe('removing a language', () => {
  it('can be undone: the language comes back in its place with every lesson as written', () => {
    const store = createDraftStore(course());
    store.addLanguage('it', ['Vero', 'Falso']);
    store.addLanguage('de', ['Richtig', 'Falsch']);
    const { day: _day, language: _language, ...values } = store.lesson(1, 'it');
    store.setLesson(1, 'it', { ...values, title: 'Giorno 1', topic_intro: 'Perché conta.' });
    const written = store.lesson(1, 'it');

    const undo = store.removeLanguage('it');
    expect(store.snapshot().languages.map((entry) => entry.short_name)).toEqual(['en', 'de']);
    expect(store.lesson(1, 'it').title).toBe('');

    undo();
    expect(store.snapshot().languages.map((entry) => entry.short_name)).toEqual(['en', 'it', 'de']);
    expect(store.lesson(1, 'it')).toEqual(written);
    expect(store.lesson(2, 'it').assessment?.answers.map((answer) => answer.text)).toEqual([
      'Vero',
      'Falso',
    ]);
    // Undone twice, or after the language was added again, it changes nothing.
    undo();
    expect(store.snapshot().languages).toHaveLength(3);
  });
});
