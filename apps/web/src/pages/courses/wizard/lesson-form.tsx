import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ASSESSMENT_TYPES, MAX_ANSWERS, TEXT_LIMITS, ZLessonSchema } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import { Button, Checkbox, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { FormInstance } from 'antd';
import {
  createContext,
  memo,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ComponentProps, MutableRefObject, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';

import { textsIn } from '../../../i18n.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { checkForm, fieldIssue, isRequiredField, schemaField } from '../../../lib/zod-form.ts';
import type { TFieldPath } from '../../../lib/zod-form.ts';
import { emptyAssessment, lessonKey, toLessonRequest } from './draft.ts';
import { RichTextField } from './rich-text-field.tsx';
import type { TAssessmentDraft, TLessonDraft } from './draft.ts';

// One lesson (a day in a language) as a form: every rule is the shared lesson schema's, checked
// on the lesson as the API would receive it (an empty media link is no media, an empty response
// takes the standard text). The form stays mounted across days and languages: a switch puts the
// next lesson's values into the same fields and editor (mounting the ~40 antd fields and the
// editor again cost most of a 400–1 200 ms day switch, bench/wizard.ts).

/** Which lesson the form shows (a context: a switch re-renders the editor, not every field). */
const ShownLesson = createContext('');

/** The topic content with the shown lesson's key, the `Form.Item` value and onChange passed on. */
const LessonRichText = (props: Omit<ComponentProps<typeof RichTextField>, 'documentKey'>) => (
  <RichTextField {...props} documentKey={useContext(ShownLesson)} />
);

/** A URL's start, the same in every language. */
const URL_PLACEHOLDER = 'https://';

/** The lesson form's values checked as the request they become. */
const LESSON_FORM_SCHEMA = z.preprocess(
  (values) => toLessonRequest(values as TLessonDraft, '-'),
  ZLessonSchema,
);

export type TLessonFieldErrors = { name: TFieldPath; errors: string[] }[];

type Props = {
  lesson: TLessonDraft;
  languageName: string;
  /** Where the lesson's own form instance is handed to the page, to validate before switching. */
  formRef: MutableRefObject<FormInstance | null>;
  /** The lesson's values after a change, and whether the lesson schema accepts them. */
  onChange: (values: Omit<TLessonDraft, 'day' | 'language'>, valid: boolean) => void;
  /** The API's field errors for this lesson from the last save. */
  serverErrors?: TLessonFieldErrors;
  /** A field to scroll to and show (a link from the publish check). */
  focus?: TFieldPath | null;
  readOnly?: boolean;
  /** Shown above the fields (the AI translation of a non-primary day). */
  extra?: ReactNode;
};

const answerTextPaths = (count: number): TFieldPath[] =>
  Array.from({ length: count }, (_, index) => ['assessment', 'answers', index, 'text']);

type TFieldUpdate = { name: TFieldPath; value: unknown };

/**
 * What differs between the shown lesson and the next, as the smallest fields: with the same number
 * of answers each answer's text, correct flag and response on its own, so the answer rows stay and
 * only the inputs whose value changes render (a new answers list renders every row again).
 */
const lessonUpdates = (shown: TLessonDraft, next: TLessonDraft): TFieldUpdate[] => {
  const updates: TFieldUpdate[] = [];
  const compare = (name: TFieldPath, before: unknown, after: unknown) => {
    if (before !== after) updates.push({ name, value: after });
  };
  for (const key of ['title', 'topic_intro', 'topic_content', 'learning_minutes'] as const) {
    compare([key], shown[key], next[key]);
  }
  if (shown.media?.url !== next.media?.url || shown.media?.type !== next.media?.type) {
    updates.push({ name: ['media'], value: next.media });
  }
  const before = shown.assessment;
  const after = next.assessment;
  if (!before || !after || before.answers.length !== after.answers.length) {
    if (before !== after) updates.push({ name: ['assessment'], value: after });
    return updates;
  }
  for (const key of ['question', 'type', 'mandatory', 'thank_you_message'] as const) {
    compare(['assessment', key], before[key], after[key]);
  }
  after.answers.forEach((answer, index) => {
    for (const key of ['text', 'correct', 'response'] as const) {
      compare(['assessment', 'answers', index, key], before.answers[index]?.[key], answer[key]);
    }
  });
  return updates;
};

/** Replaces the form's lesson with another: values, and no error or touched mark left over. */
const showLesson = (form: FormInstance, lesson: TLessonDraft) => {
  // `validating: false` drops a check still running for the last lesson.
  const stale = form
    .getFieldsError()
    .filter(
      ({ name, errors, warnings }) =>
        errors.length > 0 ||
        warnings.length > 0 ||
        form.isFieldTouched(name) ||
        form.isFieldValidating(name),
    )
    .map(({ name }) => ({ name, errors: [], warnings: [], touched: false, validating: false }));
  // setFields, not setFieldsValue: that one marks every changed field touched and copies every
  // list, which renders all answer rows again.
  form.setFields([...lessonUpdates(form.getFieldsValue(true) as TLessonDraft, lesson), ...stale]);
};

/** The lesson's values, as the page keeps them. */
const lessonValues = (form: FormInstance): Omit<TLessonDraft, 'day' | 'language'> => {
  const values = form.getFieldsValue(true) as TLessonDraft;
  return {
    title: values.title,
    topic_intro: values.topic_intro,
    topic_content: values.topic_content,
    learning_minutes: values.learning_minutes,
    media: values.media,
    assessment: values.assessment,
  };
};

export const LessonForm = ({
  lesson,
  languageName,
  formRef,
  onChange,
  serverErrors,
  focus,
  readOnly = false,
  extra,
}: Props) => {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  useEffect(() => {
    formRef.current = form;
    return () => {
      if (formRef.current === form) formRef.current = null;
    };
  }, [form, formRef]);
  // The first lesson's values start the form; later ones are put in by showLesson.
  const [initialValues] = useState(lesson);
  const key = lessonKey(lesson.day, lesson.language);
  const shownKey = useRef(key);
  // The page's handler of this render, for callbacks that stay the same across lessons.
  const latestOnChange = useRef(onChange);
  useLayoutEffect(() => {
    latestOnChange.current = onChange;
  });

  // Before the next lesson paints: its values in place of the last one's, which leaves no error,
  // touched mark or pending check behind; then its server errors and the field to show.
  useLayoutEffect(() => {
    if (shownKey.current !== key) {
      shownKey.current = key;
      showLesson(form, lesson);
    }
    if (serverErrors?.length) form.setFields(serverErrors);
    if (focus) {
      form.scrollToField(focus, { focus: true, block: 'center' });
      void form.validateFields([focus]).catch(() => undefined);
    }
    // Once per lesson shown: the values come from the form from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // A save's field errors for the lesson shown: with the lesson's own errors, so a refused save
  // hides none of them (the server's text wins where both name a field).
  const lastServerErrors = useRef(serverErrors);
  useEffect(() => {
    if (lastServerErrors.current === serverErrors) return;
    lastServerErrors.current = serverErrors;
    if (!serverErrors?.length) return;
    void form
      .validateFields({ recursive: true })
      .catch(() => undefined)
      .finally(() => form.setFields(serverErrors));
  }, [form, serverErrors]);

  const assessment = Form.useWatch('assessment', { form, preserve: true }) as
    TLessonDraft['assessment'] | undefined;

  /** Hands the values to the page; the answers list's rules concern every answer. */
  const changed = useCallback(
    (part: Partial<TLessonDraft>) => {
      const values = lessonValues(form);
      // The same check the fields' rules make of this change (checkForm parses it once).
      const valid = checkForm(LESSON_FORM_SCHEMA, form.getFieldsValue(true)).success;
      latestOnChange.current(values, valid);
      // Similar answers and the correct-answer rule concern the whole list: check it again.
      if (part.assessment && values.assessment) {
        const touched = answerTextPaths(values.assessment.answers.length).filter((path) =>
          form.isFieldTouched(path),
        );
        void form.validateFields([...touched, ['assessment', 'answers']]).catch(() => undefined);
      }
    },
    [form],
  );

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark
      disabled={readOnly}
      initialValues={initialValues}
      onValuesChange={changed}
      className="lesson-form"
      aria-label={t('courses.wizard.content.formLabel', {
        day: lesson.day,
        language: languageName,
      })}
    >
      {extra}
      <ShownLesson.Provider value={key}>
        <LessonFields
          form={form}
          language={lesson.language}
          hasAssessment={!!assessment}
          type={assessment?.type}
          answerCount={assessment?.answers.length ?? 0}
          changed={changed}
        />
      </ShownLesson.Provider>
    </Form>
  );
};

type TFieldsProps = {
  form: FormInstance;
  /** The lesson's language (its true/false labels). */
  language: TLocale;
  hasAssessment: boolean;
  type: TAssessmentDraft['type'] | undefined;
  answerCount: number;
  changed: (part: Partial<TLessonDraft>) => void;
};

/**
 * The fields: rendered again only when the assessment's shape changes (on, type, number of
 * answers), not on a day switch or a keystroke, when only the fields whose value changed do.
 */
const LessonFields = memo(
  ({ form, language, hasAssessment, type, answerCount, changed }: TFieldsProps) => {
    const { t } = useTranslation();
    const translate = useMemo(
      () => (text: string) => translateMessage(describeMessage(text), t),
      [t],
    );
    const field = useMemo(() => {
      const base = schemaField(LESSON_FORM_SCHEMA, translate);
      return (path: TFieldPath) => ({
        ...base(path),
        required: isRequiredField(ZLessonSchema, path),
      });
    }, [translate]);
    const answersRule = useMemo(
      () => ({
        validator: async () => {
          const message = fieldIssue(LESSON_FORM_SCHEMA, form.getFieldsValue(true), [
            'assessment',
            'answers',
          ]);
          if (message) throw new Error(translate(message));
        },
      }),
      [form, translate],
    );
    const assessmentNow = () => form.getFieldValue('assessment') as TLessonDraft['assessment'];

    const setType = async (next: string) => {
      const current = assessmentNow() ?? emptyAssessment();
      if (next === 'true_false') {
        // Labelled in the lesson's language: an Italian lesson's learners get Italian buttons.
        const inLesson = await textsIn(language);
        form.setFieldValue(
          ['assessment', 'answers'],
          [
            { text: inLesson('courses.wizard.assessment.trueAnswer'), correct: true, response: '' },
            {
              text: inLesson('courses.wizard.assessment.falseAnswer'),
              correct: false,
              response: '',
            },
          ],
        );
      } else if (next === 'open_answer') {
        // Spec §3: answers are for choice questions; an open answer is written by the learner.
        form.setFieldValue(['assessment', 'answers'], []);
      } else if (next === 'multiple_choice' && current.answers.length < 2) {
        form.setFieldValue(['assessment', 'answers'], emptyAssessment().answers);
      }
      changed({ assessment: assessmentNow() });
    };

    return (
      <>
        <Form.Item {...field(['title'])} label={t('courses.wizard.lesson.title')}>
          <Input count={{ show: true, max: TEXT_LIMITS.lessonTitle }} />
        </Form.Item>
        <Form.Item {...field(['topic_intro'])} label={t('courses.wizard.lesson.topicIntro')}>
          <Input.TextArea
            rows={2}
            classNames={{ textarea: 'grow-text grow-text-2-6' }}
            count={{ show: true, max: TEXT_LIMITS.topicIntro }}
          />
        </Form.Item>
        <Form.Item
          {...field(['topic_content'])}
          label={t('courses.wizard.lesson.topicContent')}
          extra={t('courses.wizard.lesson.topicContentHelp')}
        >
          <LessonRichText label={t('courses.wizard.lesson.topicContent')} />
        </Form.Item>
        <div className="form-grid">
          <Form.Item
            {...field(['learning_minutes'])}
            label={t('courses.wizard.lesson.learningMinutes')}
          >
            <InputNumber className="input-number-full" />
          </Form.Item>
          <Form.Item
            {...field(['media', 'url'])}
            required={false}
            label={t('courses.wizard.lesson.media')}
            extra={t('courses.wizard.lesson.mediaHelp')}
          >
            <Input type="url" placeholder={URL_PLACEHOLDER} />
          </Form.Item>
        </div>

        <section className="assessment-section" aria-label={t('courses.wizard.assessment.title')}>
          <div className="assessment-head">
            <h3 className="assessment-title">{t('courses.wizard.assessment.title')}</h3>
            <Switch
              checked={hasAssessment}
              aria-label={t('courses.wizard.assessment.enabled')}
              onChange={(on) => {
                form.setFieldValue('assessment', on ? emptyAssessment() : null);
                changed({ assessment: assessmentNow() });
              }}
            />
          </div>
          {hasAssessment && (
            <>
              <Form.Item
                {...field(['assessment', 'question'])}
                label={t('courses.wizard.assessment.question')}
              >
                <Input.TextArea
                  rows={1}
                  classNames={{ textarea: 'grow-text grow-text-1-4' }}
                  count={{ show: true, max: TEXT_LIMITS.question }}
                />
              </Form.Item>
              <div className="form-grid">
                <Form.Item
                  name={['assessment', 'type']}
                  label={t('courses.wizard.assessment.type')}
                >
                  <Select
                    onChange={(next: string) => void setType(next)}
                    options={ASSESSMENT_TYPES.map((value) => ({
                      value,
                      label: t(`courses.wizard.assessment.types.${value}`),
                    }))}
                  />
                </Form.Item>
                <Form.Item
                  name={['assessment', 'mandatory']}
                  label={t('courses.wizard.assessment.mandatory')}
                  valuePropName="checked"
                >
                  <Switch />
                </Form.Item>
              </div>
              {type !== 'open_answer' && (
                <Form.List name={['assessment', 'answers']} rules={[answersRule]}>
                  {(answers, { add, remove }, { errors }) => (
                    <div
                      className="answers"
                      role="group"
                      aria-label={t('courses.wizard.assessment.answers')}
                    >
                      <div className="answers-head">
                        <span>{t('courses.wizard.assessment.answers')}</span>
                        <span className="muted">
                          {t('courses.wizard.assessment.answersCount', {
                            shown: answers.length,
                            max: MAX_ANSWERS,
                          })}
                        </span>
                      </div>
                      {answers.map((answer, index) => (
                        <div className="answer-row" key={answer.key} data-option={index + 1}>
                          <span className="answer-number" aria-hidden>
                            {index + 1}
                          </span>
                          <Form.Item
                            name={[answer.name, 'correct']}
                            valuePropName="checked"
                            className="answer-correct"
                          >
                            <Checkbox>{t('courses.wizard.assessment.correct')}</Checkbox>
                          </Form.Item>
                          <Form.Item
                            {...field(['assessment', 'answers', index, 'text'])}
                            name={[answer.name, 'text']}
                            className="answer-text"
                            label={t('courses.wizard.assessment.answerText', { option: index + 1 })}
                          >
                            <Input count={{ show: true, max: TEXT_LIMITS.answer }} />
                          </Form.Item>
                          <Form.Item
                            {...field(['assessment', 'answers', index, 'response'])}
                            name={[answer.name, 'response']}
                            required={false}
                            className="answer-response"
                            label={t('courses.wizard.assessment.response', { option: index + 1 })}
                          >
                            <Input
                              count={{ show: true, max: TEXT_LIMITS.response }}
                              placeholder={t('validation.answerResponseDefault')}
                            />
                          </Form.Item>
                          {type !== 'true_false' && (
                            <Button
                              type="text"
                              icon={<DeleteOutlined />}
                              className="answer-remove"
                              aria-label={t('courses.wizard.assessment.removeAnswer', {
                                option: index + 1,
                              })}
                              onClick={() => {
                                remove(answer.name);
                                changed({ assessment: assessmentNow() });
                              }}
                            />
                          )}
                        </div>
                      ))}
                      <Form.ErrorList errors={errors} />
                      {type !== 'true_false' && answerCount < MAX_ANSWERS && (
                        <Button
                          icon={<PlusOutlined />}
                          onClick={() => {
                            add({ text: '', correct: false, response: '' });
                            changed({ assessment: assessmentNow() });
                          }}
                        >
                          {t('courses.wizard.assessment.addAnswer')}
                        </Button>
                      )}
                    </div>
                  )}
                </Form.List>
              )}
              <Form.Item
                {...field(['assessment', 'thank_you_message'])}
                label={t('courses.wizard.assessment.thankYou')}
              >
                <Input.TextArea
                  rows={1}
                  classNames={{ textarea: 'grow-text grow-text-1-4' }}
                  count={{ show: true, max: TEXT_LIMITS.response }}
                />
              </Form.Item>
            </>
          )}
        </section>
      </>
    );
  },
);
LessonFields.displayName = 'LessonFields';
