import {
  DISTRIBUTION_DEFAULTS,
  REMINDER_POLICY_DEFAULTS,
  MAX_LESSONS_PER_COURSE,
  ZLessonSchema,
  deliveryStepSchema,
  publishCheck,
  toPublishCourse,
} from '@ccp/schemas';
import type {
  TAssessmentType,
  TCourse,
  TCourseStatus,
  TDistributionInput,
  TLocale,
  TPublishProblem,
} from '@ccp/schemas';

// The course as the wizard edits it, outside React: one lesson per day and language, the
// languages, the delivery settings. Lessons are kept as the lesson form holds them; each change
// bumps a version, so a save knows whether anything is left unsaved and the day list re-renders
// only when a lesson's state (empty, invalid, valid) changes.

export type TAnswerDraft = { text: string; correct: boolean; response: string };
export type TAssessmentDraft = {
  question: string;
  type: TAssessmentType;
  mandatory: boolean;
  answers: TAnswerDraft[];
  thank_you_message: string | null;
};
export type TLessonDraft = {
  day: number;
  language: TLocale;
  title: string;
  topic_intro: string;
  topic_content: string;
  learning_minutes: number | null;
  media: { type?: 'link' | 'upload'; url: string } | null;
  assessment: TAssessmentDraft | null;
  /**
   * Made from the primary language's lesson of that day (its structure, no text of its own yet):
   * it counts as not written until a text is, so adding a language leaves nothing to refuse.
   */
  derived?: boolean;
};
/** True/false answer labels in a lesson's language, true first. */
export type TTrueFalseLabels = readonly [string, string];
export type TLanguageDraft = { short_name: TLocale; is_primary: boolean };
export type TDeliveryDraft = {
  distribution: TDistributionInput;
  learners_lists: string[];
};

export type TLessonState = 'empty' | 'invalid' | 'valid';
/** The API's field errors of one lesson, by the lesson form's field names. */
export type TLessonServerErrors = { name: (string | number)[]; errors: string[] }[];
export type TStep = 'intro' | 'content' | 'delivery' | 'finish';
export const WIZARD_STEPS: readonly TStep[] = ['intro', 'content', 'delivery', 'finish'];

export const lessonKey = (day: number, language: string) => `${day}:${language}`;

export const emptyAssessment = (): TAssessmentDraft => ({
  question: '',
  type: 'multiple_choice',
  mandatory: true,
  answers: [
    { text: '', correct: true, response: '' },
    { text: '', correct: false, response: '' },
  ],
  thank_you_message: null,
});

export const emptyLesson = (day: number, language: TLocale): TLessonDraft => ({
  day,
  language,
  title: '',
  topic_intro: '',
  topic_content: '',
  learning_minutes: 5,
  media: null,
  assessment: emptyAssessment(),
});

const isBlank = (value: string | null | undefined) =>
  !value || !value.replace(/<[^>]*>/g, '').trim();

/**
 * A lesson nobody has written in yet (a day just added, a language just added): not sent, not an
 * error. A lesson made from the primary one keeps its media and true/false labels until then.
 */
export const isUntouched = (lesson: TLessonDraft): boolean =>
  isBlank(lesson.title) &&
  isBlank(lesson.topic_intro) &&
  isBlank(lesson.topic_content) &&
  (lesson.derived || !lesson.media?.url) &&
  (!lesson.assessment ||
    (isBlank(lesson.assessment.question) &&
      lesson.assessment.answers.every(
        (answer) =>
          (isBlank(answer.text) || (lesson.derived && lesson.assessment?.type === 'true_false')) &&
          isBlank(answer.response),
      )));

/**
 * Another language's lesson of the same day, with the primary lesson's structure: assessment type,
 * mandatory flag, number of answers and which are correct, minutes and media. Only the texts are
 * left to write; true/false answers take their labels in the lesson's own language.
 */
export const structureOf = (
  primary: TLessonDraft,
  language: TLocale,
  trueFalse: TTrueFalseLabels,
): TLessonDraft => {
  const assessment = primary.assessment;
  return {
    day: primary.day,
    language,
    title: '',
    topic_intro: '',
    topic_content: '',
    learning_minutes: primary.learning_minutes,
    media: primary.media ? { ...primary.media } : null,
    assessment: assessment
      ? {
          question: '',
          type: assessment.type,
          mandatory: assessment.mandatory,
          thank_you_message: null,
          answers:
            assessment.type === 'open_answer'
              ? []
              : assessment.answers.map((answer, index) => ({
                  text: assessment.type === 'true_false' ? (trueFalse[index] ?? '') : '',
                  correct: answer.correct,
                  response: '',
                })),
        }
      : null,
    derived: true,
  };
};

/** The lesson as the API takes it (the shared lesson schema's input). */
export const toLessonRequest = (lesson: TLessonDraft, defaultResponse: string) => ({
  day: lesson.day,
  language: lesson.language,
  title: lesson.title,
  topic_intro: lesson.topic_intro,
  topic_content: lesson.topic_content,
  learning_minutes: lesson.learning_minutes ?? Number.NaN,
  media: lesson.media?.url?.trim()
    ? { type: lesson.media.type ?? 'link', url: lesson.media.url.trim() }
    : null,
  assessment: lesson.assessment
    ? {
        ...lesson.assessment,
        thank_you_message: lesson.assessment.thank_you_message?.trim()
          ? lesson.assessment.thank_you_message
          : null,
        // Spec §5: an empty response is pre-filled with the standard text.
        answers: lesson.assessment.answers.map((answer) => ({
          ...answer,
          response: answer.response.trim() ? answer.response : defaultResponse,
        })),
      }
    : null,
});

/** `valid`: the lesson's schema check when the caller has made it already (the lesson form). */
export const lessonState = (lesson: TLessonDraft | undefined, valid?: boolean): TLessonState => {
  if (!lesson || isUntouched(lesson)) return 'empty';
  return (valid ?? ZLessonSchema.safeParse(toLessonRequest(lesson, '-')).success)
    ? 'valid'
    : 'invalid';
};

const toDraftLesson = (lesson: TCourse['lessons'][number]): TLessonDraft => ({
  day: lesson.day,
  language: lesson.language as TLocale,
  title: lesson.title,
  topic_intro: lesson.topic_intro,
  topic_content: lesson.topic_content,
  learning_minutes: lesson.learning_minutes,
  media: lesson.media,
  assessment: lesson.assessment
    ? {
        ...lesson.assessment,
        answers: lesson.assessment.answers.map((answer) => ({ ...answer })),
      }
    : null,
});

export const defaultDistribution = (): TDistributionInput => ({
  repeat_period: DISTRIBUTION_DEFAULTS.repeat_period,
  repeat_every: DISTRIBUTION_DEFAULTS.repeat_every,
  time: DISTRIBUTION_DEFAULTS.time,
  start_date: null,
  channels: [],
  disabled_enrolment_opt_in: DISTRIBUTION_DEFAULTS.disabled_enrolment_opt_in,
  exclusion_days: [],
  learner_time_zone: false,
  repeat_questions: DISTRIBUTION_DEFAULTS.repeat_questions,
  target_retention: DISTRIBUTION_DEFAULTS.target_retention,
  ...REMINDER_POLICY_DEFAULTS,
  enrollment_close_time: null,
});

export type TDraftSnapshot = {
  uuid: string;
  status: TCourseStatus;
  name: string;
  description: string;
  category: string | null;
  languages: TLanguageDraft[];
  days: number;
  delivery: TDeliveryDraft;
};

type Listener = () => void;

export type TDraftStore = ReturnType<typeof createDraftStore>;

/** The wizard's course, loaded once from the API and saved whole. */
export const createDraftStore = (course: TCourse) => {
  const lessons = new Map<string, TLessonDraft>();
  const states = new Map<string, TLessonState>();
  for (const lesson of course.lessons) {
    const draft = toDraftLesson(lesson);
    lessons.set(lessonKey(draft.day, draft.language), draft);
  }
  let snapshot: TDraftSnapshot = {
    uuid: course.uuid,
    status: course.status,
    name: course.name,
    description: course.description,
    category: course.category,
    languages: course.languages.map((language) => ({
      short_name: language.short_name as TLocale,
      is_primary: language.is_primary,
    })),
    days: Math.max(1, ...course.lessons.map((lesson) => lesson.day)),
    delivery: {
      distribution: course.distribution
        ? { ...course.distribution, channels: [...course.distribution.channels] }
        : defaultDistribution(),
      learners_lists: course.learners_lists.map((list) => list.uuid),
    },
  };
  let serverErrors = new Map<string, TLessonServerErrors>();
  // Each added language's true/false labels, for the lessons made from the primary ones.
  const trueFalseLabels = new Map<TLocale, TTrueFalseLabels>();
  /** The lesson of another language made from the primary one of that day, if there is one. */
  const derivedLesson = (day: number, language: TLocale): TLessonDraft | undefined => {
    const primary = store.primary();
    const source = language === primary ? undefined : lessons.get(lessonKey(day, primary));
    return source && !isUntouched(source)
      ? structureOf(source, language, trueFalseLabels.get(language) ?? ['', ''])
      : undefined;
  };
  let version = 0;
  let savedVersion = 0;
  let statesVersion = 0;
  const listeners = new Set<Listener>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const refreshState = (key: string, valid?: boolean) => {
    const next = serverErrors.has(key) ? 'invalid' : lessonState(lessons.get(key), valid);
    if (states.get(key) !== next) {
      states.set(key, next);
      statesVersion += 1;
      return true;
    }
    return false;
  };
  for (const key of lessons.keys()) refreshState(key);
  const change = (next: Partial<TDraftSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    version += 1;
    emit();
  };

  const store = {
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    snapshot: () => snapshot,
    /** Changes whenever a lesson's state changes (the day list's markers). */
    statesVersion: () => statesVersion,
    version: () => version,
    isDirty: () => version !== savedVersion,
    markSaved: (at = version) => {
      savedVersion = at;
      emit();
    },
    primary: (): TLocale =>
      snapshot.languages.find((language) => language.is_primary)?.short_name ?? 'en',
    lesson: (day: number, language: TLocale): TLessonDraft =>
      lessons.get(lessonKey(day, language)) ??
      derivedLesson(day, language) ??
      emptyLesson(day, language),
    hasLesson: (day: number, language: TLocale) => lessons.has(lessonKey(day, language)),
    state: (day: number, language: string): TLessonState =>
      states.get(lessonKey(day, language)) ?? 'empty',
    /**
     * The lesson form's values for a day and language (a keystroke: cheap, no re-render), with
     * the form's own check of them when it has one (one schema check per keystroke, not two).
     */
    setLesson: (
      day: number,
      language: TLocale,
      values: Omit<TLessonDraft, 'day' | 'language'>,
      valid?: boolean,
    ) => {
      const key = lessonKey(day, language);
      const next: TLessonDraft = { ...values, day, language };
      // Still only the primary's structure (a correct flag ticked, no text): still not written.
      const derived = lessons.get(key)?.derived ?? !lessons.has(key);
      if (derived && language !== store.primary() && isUntouched({ ...next, derived })) {
        next.derived = true;
      }
      lessons.set(key, next);
      serverErrors.delete(key);
      version += 1;
      // Only a change of the lesson's state is news for the subscribers (the markers).
      if (refreshState(key, valid)) emit();
    },
    /** The last save's field errors per lesson (they mark the day list until edited). */
    setServerErrors: (errors: Map<string, TLessonServerErrors>) => {
      const keys = new Set([...serverErrors.keys(), ...errors.keys()]);
      serverErrors = errors;
      for (const key of keys) refreshState(key);
      statesVersion += 1;
      emit();
    },
    serverErrors: (day: number, language: string) => serverErrors.get(lessonKey(day, language)),
    setIntro: (intro: { name: string; description: string; category: string | null }) =>
      change(intro),
    setStatus: (status: TCourseStatus) => {
      snapshot = { ...snapshot, status };
      emit();
    },
    setDelivery: (delivery: TDeliveryDraft) => change({ delivery }),
    addDay: () => {
      if (snapshot.days >= MAX_LESSONS_PER_COURSE) return;
      change({ days: snapshot.days + 1 });
    },
    removeDay: (day: number) => {
      for (const language of snapshot.languages) {
        lessons.delete(lessonKey(day, language.short_name));
        states.delete(lessonKey(day, language.short_name));
        for (let later = day + 1; later <= snapshot.days; later += 1) {
          const key = lessonKey(later, language.short_name);
          const lesson = lessons.get(key);
          lessons.delete(key);
          states.delete(key);
          if (lesson) {
            lessons.set(lessonKey(later - 1, language.short_name), { ...lesson, day: later - 1 });
            refreshState(lessonKey(later - 1, language.short_name));
          }
        }
      }
      statesVersion += 1;
      change({ days: Math.max(1, snapshot.days - 1) });
    },
    /** Adds a language whose lessons start with the primary ones' structure. */
    addLanguage: (language: TLocale, trueFalse: TTrueFalseLabels = ['', '']) => {
      if (snapshot.languages.some((entry) => entry.short_name === language)) return;
      trueFalseLabels.set(language, trueFalse);
      for (let day = 1; day <= snapshot.days; day += 1) {
        const lesson = derivedLesson(day, language);
        if (lesson && !lessons.has(lessonKey(day, language))) {
          lessons.set(lessonKey(day, language), lesson);
          refreshState(lessonKey(day, language));
        }
      }
      statesVersion += 1;
      change({ languages: [...snapshot.languages, { short_name: language, is_primary: false }] });
    },
    /**
     * Removes a language and its lessons; answers how to undo it (issue 27: its lessons were
     * gone at once), which puts the language back where it was with every lesson as it was.
     */
    removeLanguage: (language: TLocale): (() => void) => {
      const entry = snapshot.languages.find((item) => item.short_name === language);
      if (!entry || entry.is_primary) return () => undefined;
      const position = snapshot.languages.indexOf(entry);
      const removed: [number, TLessonDraft][] = [];
      for (let day = 1; day <= snapshot.days; day += 1) {
        const lesson = lessons.get(lessonKey(day, language));
        if (lesson) removed.push([day, lesson]);
        lessons.delete(lessonKey(day, language));
        states.delete(lessonKey(day, language));
      }
      statesVersion += 1;
      change({ languages: snapshot.languages.filter((item) => item !== entry) });
      return () => {
        if (snapshot.languages.some((item) => item.short_name === language)) return;
        for (const [day, lesson] of removed) {
          if (day > snapshot.days) continue;
          lessons.set(lessonKey(day, language), lesson);
          refreshState(lessonKey(day, language));
        }
        statesVersion += 1;
        const languages = [...snapshot.languages];
        languages.splice(Math.min(position, languages.length), 0, entry);
        change({ languages });
      };
    },
    /** Replaces lessons with the API's (after a save or a translation). */
    replaceFromCourse: (next: TCourse, keepLocal = false) => {
      if (!keepLocal) lessons.clear();
      for (const lesson of next.lessons) {
        const draft = toDraftLesson(lesson);
        lessons.set(lessonKey(draft.day, draft.language), draft);
      }
      states.clear();
      for (const key of lessons.keys()) refreshState(key);
      statesVersion += 1;
      change({
        status: next.status,
        languages: next.languages.map((language) => ({
          short_name: language.short_name as TLocale,
          is_primary: language.is_primary,
        })),
        days: Math.max(snapshot.days, ...next.lessons.map((lesson) => lesson.day)),
      });
    },
    /** Every lesson with something written in it, in day then language order. */
    writtenLessons: (): TLessonDraft[] => {
      const written: TLessonDraft[] = [];
      for (let day = 1; day <= snapshot.days; day += 1) {
        for (const language of snapshot.languages) {
          const lesson = lessons.get(lessonKey(day, language.short_name));
          if (lesson && !isUntouched(lesson)) written.push(lesson);
        }
      }
      return written;
    },
    /** The full course as `POST …/courses/{uuid}` takes it, and which lesson each index is. */
    requestBody: (
      defaultResponse: string,
      { status, delivery = false }: { status?: 'draft' | 'scheduled'; delivery?: boolean } = {},
    ) => {
      const sent = store.writtenLessons();
      return {
        body: {
          name: snapshot.name,
          description: snapshot.description,
          category: snapshot.category,
          languages: snapshot.languages,
          lessons: sent.map((lesson) => toLessonRequest(lesson, defaultResponse)),
          ...(delivery
            ? {
                distribution: snapshot.delivery.distribution,
                learners_lists: snapshot.delivery.learners_lists,
              }
            : {}),
          ...(status ? { status } : {}),
        },
        sent: sent.map((lesson) => ({ day: lesson.day, language: lesson.language })),
      };
    },
  };
  return store;
};

/**
 * Whether the Content step lets the creator move on (docs/decisions.md, "Course wizard (issue
 * 13)"): every day of the primary language is complete and no lesson has errors. A lesson not
 * written yet in another language does not hold the creator back: the publish check on Finish
 * lists it ("Day 2, Italian: The lesson is missing.") with a link to it, and blocks scheduling.
 */
export const contentComplete = (store: TDraftStore): boolean => {
  const { days, languages } = store.snapshot();
  const primary = store.primary();
  for (let day = 1; day <= days; day += 1) {
    for (const language of languages) {
      const state = store.state(day, language.short_name);
      if (state === 'invalid' || (language.short_name === primary && state !== 'valid')) {
        return false;
      }
    }
  }
  return days >= 1 && languages.length > 0;
};

export const deliveryComplete = (
  store: TDraftStore,
  now: Date,
  hasLearnersLists: boolean,
): boolean =>
  deliveryStepSchema(now, { hasLearnersLists }).safeParse(store.snapshot().delivery).success;

/** Everything that blocks scheduling, by the shared publish check of spec §5. */
export const publishProblems = (
  store: TDraftStore,
  now: Date,
  hasLearnersLists: boolean,
  defaultResponse: string,
): TPublishProblem[] => {
  const { body } = store.requestBody(defaultResponse, { delivery: true });
  return publishCheck(toPublishCourse(body), { now, hasLearnersLists });
};

/** Where a draft stands: the first step that is not complete (a draft resumes there). */
export const resumeStep = (store: TDraftStore, now: Date, hasLearnersLists: boolean): TStep => {
  if (!contentComplete(store)) return 'content';
  if (!deliveryComplete(store, now, hasLearnersLists)) return 'delivery';
  return 'finish';
};
