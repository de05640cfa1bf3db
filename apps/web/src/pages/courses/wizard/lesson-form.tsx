import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ASSESSMENT_TYPES, MAX_ANSWERS, TEXT_LIMITS, ZLessonSchema } from '@ccp/schemas';
import { Button, Checkbox, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { FormInstance } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import type { MutableRefObject, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';

import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { fieldIssue, isRequiredField, schemaField } from '../../../lib/zod-form.ts';
import type { TFieldPath } from '../../../lib/zod-form.ts';
import { emptyAssessment, toLessonRequest } from './draft.ts';
import type { TLessonDraft } from './draft.ts';

// One lesson (a day in a language) as a form: every rule is the shared lesson schema's, checked
// on the lesson as the API would receive it (an empty media link is no media, an empty response
// takes the standard text). The form is remounted for each day and language.

const RichTextInput = lazy(() =>
  import('./rich-text.tsx').then((module) => ({ default: module.RichTextInput })),
);

type TRichTextProps = { value?: string; onChange?: (html: string) => void; label: string };

/** The editor's chunk behind Suspense, with the `Form.Item` value and onChange passed through. */
const LazyRichText = (props: TRichTextProps) => (
  <Suspense fallback={<div className="rich-text rich-text-loading" aria-busy="true" />}>
    <RichTextInput {...props} />
  </Suspense>
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
  onChange: (values: Omit<TLessonDraft, 'day' | 'language'>) => void;
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
  // Each lesson has its own form, so it starts from its own values (a form shared by every day
  // keeps the last lesson's over a new initialValues); the page validates through formRef.
  const [form] = Form.useForm();
  useEffect(() => {
    formRef.current = form;
    return () => {
      if (formRef.current === form) formRef.current = null;
    };
  }, [form, formRef]);
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
  const mounted = useRef(false);

  useEffect(() => {
    if (serverErrors?.length) form.setFields(serverErrors);
    if (focus) {
      form.scrollToField(focus, { focus: true, block: 'center' });
      void form.validateFields([focus]).catch(() => undefined);
    }
    mounted.current = true;
    // Once per mounted lesson: the form is keyed by day and language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const assessment = Form.useWatch('assessment', { form, preserve: true }) as
    TLessonDraft['assessment'] | undefined;
  const type = assessment?.type;
  const answerCount = assessment?.answers.length ?? 0;

  const onValuesChange = (changed: Partial<TLessonDraft>) => {
    const values = form.getFieldsValue(true) as TLessonDraft;
    onChange({
      title: values.title,
      topic_intro: values.topic_intro,
      topic_content: values.topic_content,
      learning_minutes: values.learning_minutes,
      media: values.media,
      assessment: values.assessment,
    });
    // Similar answers and the correct-answer rule concern the whole list: check it again.
    if (changed.assessment && values.assessment) {
      const touched = answerTextPaths(values.assessment.answers.length).filter((path) =>
        form.isFieldTouched(path),
      );
      void form.validateFields([...touched, ['assessment', 'answers']]).catch(() => undefined);
    }
  };

  const setType = (next: string) => {
    const current = (form.getFieldValue('assessment') ?? emptyAssessment()) as NonNullable<
      TLessonDraft['assessment']
    >;
    if (next === 'true_false') {
      form.setFieldValue(
        ['assessment', 'answers'],
        [
          { text: t('courses.wizard.assessment.trueAnswer'), correct: true, response: '' },
          { text: t('courses.wizard.assessment.falseAnswer'), correct: false, response: '' },
        ],
      );
    } else if (next === 'multiple_choice' && current.answers.length < 2) {
      form.setFieldValue(['assessment', 'answers'], emptyAssessment().answers);
    }
    onValuesChange({ assessment: form.getFieldValue('assessment') as TLessonDraft['assessment'] });
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark
      disabled={readOnly}
      initialValues={lesson}
      onValuesChange={onValuesChange}
      className="lesson-form"
      aria-label={t('courses.wizard.content.formLabel', {
        day: lesson.day,
        language: languageName,
      })}
    >
      {extra}
      <Form.Item {...field(['title'])} label={t('courses.wizard.lesson.title')}>
        <Input count={{ show: true, max: TEXT_LIMITS.lessonTitle }} />
      </Form.Item>
      <Form.Item {...field(['topic_intro'])} label={t('courses.wizard.lesson.topicIntro')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          count={{ show: true, max: TEXT_LIMITS.topicIntro }}
        />
      </Form.Item>
      <Form.Item
        {...field(['topic_content'])}
        label={t('courses.wizard.lesson.topicContent')}
        extra={t('courses.wizard.lesson.topicContentHelp')}
      >
        <LazyRichText label={t('courses.wizard.lesson.topicContent')} />
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
            checked={!!assessment}
            aria-label={t('courses.wizard.assessment.enabled')}
            onChange={(on) => {
              form.setFieldValue('assessment', on ? emptyAssessment() : null);
              onValuesChange({ assessment: on ? emptyAssessment() : null });
            }}
          />
        </div>
        {assessment && (
          <>
            <Form.Item
              {...field(['assessment', 'question'])}
              label={t('courses.wizard.assessment.question')}
            >
              <Input.TextArea
                autoSize={{ minRows: 1, maxRows: 4 }}
                count={{ show: true, max: TEXT_LIMITS.question }}
              />
            </Form.Item>
            <div className="form-grid">
              <Form.Item name={['assessment', 'type']} label={t('courses.wizard.assessment.type')}>
                <Select
                  onChange={setType}
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
                            onValuesChange({
                              assessment: form.getFieldValue(
                                'assessment',
                              ) as TLessonDraft['assessment'],
                            });
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
                        onValuesChange({
                          assessment: form.getFieldValue(
                            'assessment',
                          ) as TLessonDraft['assessment'],
                        });
                      }}
                    >
                      {t('courses.wizard.assessment.addAnswer')}
                    </Button>
                  )}
                </div>
              )}
            </Form.List>
            <Form.Item
              {...field(['assessment', 'thank_you_message'])}
              label={t('courses.wizard.assessment.thankYou')}
            >
              <Input.TextArea
                autoSize={{ minRows: 1, maxRows: 4 }}
                count={{ show: true, max: TEXT_LIMITS.response }}
              />
            </Form.Item>
          </>
        )}
      </section>
    </Form>
  );
};
