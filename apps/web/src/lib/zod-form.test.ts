import {
  MESSAGES,
  ZCourseUpdateRequestSchema,
  ZCreateLearnerRequestSchema,
  ZCreateLearnersListRequestSchema,
} from '@ccp/schemas';
import type { FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';

import { showFieldErrors } from './use-schema-form.ts';
import {
  checkForm,
  fieldErrorsToFields,
  fieldIssue,
  fieldSchemaAt,
  isRequiredField,
  pathOf,
  schemaField,
} from './zod-form.ts';

const upper = (text: string) => text.toUpperCase();

/** Runs a field's antd rule as antd does, with the form's current values. */
const validate = async (
  field: ReturnType<ReturnType<typeof schemaField>>,
  values: Record<string, unknown>,
): Promise<string | null> => {
  const [rule] = field.rules;
  const resolved =
    typeof rule === 'function' ? rule({ getFieldsValue: () => values } as never) : rule;
  try {
    await resolved?.validator?.({}, undefined, () => undefined);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('zod → antd rules', () => {
  it('validates a field with the shared schema and translates its message', async () => {
    const field = schemaField(ZCreateLearnersListRequestSchema, upper)('name');
    expect(field.name).toEqual(['name']);
    expect(field.required).toBe(true);
    expect(await validate(field, { name: '' })).toBe(MESSAGES.nameRequired.toUpperCase());
    expect(await validate(field, { name: 'x'.repeat(101) })).toBe(
      MESSAGES.listNameMax.toUpperCase(),
    );
    expect(await validate(field, { name: 'Sales 2026' })).toBeNull();
  });

  it('puts cross-field rules on the field they name (the e-mail a channel needs)', async () => {
    const field = schemaField(ZCreateLearnerRequestSchema, (text) => text)('email');
    const values = { first_name: 'Anna', last_name: 'Rossi', channels: ['slack'], locale: 'it' };
    expect(await validate(field, values)).toBe(MESSAGES.emailRequiredForChannel);
    expect(await validate(field, { ...values, email: 'anna@example.com' })).toBeNull();
    expect(
      await validate(field, { ...values, channels: ['whatsapp'], phone: '+393331234567' }),
    ).toBeNull();
  });

  it('finds nested fields and knows which are required', () => {
    const path = pathOf('lessons.0.assessment.answers.2.text');
    expect(path).toEqual(['lessons', 0, 'assessment', 'answers', 2, 'text']);
    expect(fieldSchemaAt(ZCourseUpdateRequestSchema, path)).toBeDefined();
    expect(isRequiredField(ZCourseUpdateRequestSchema, path)).toBe(true);
    expect(isRequiredField(ZCourseUpdateRequestSchema, ['category'])).toBe(false);
    expect(fieldSchemaAt(ZCourseUpdateRequestSchema, ['lessons', 'x'])).toBeUndefined();
    const lesson = {
      day: 1,
      language: 'en',
      title: '',
      topic_intro: 'i',
      topic_content: '<p>c</p>',
      learning_minutes: 5,
    };
    expect(
      fieldIssue(
        ZCourseUpdateRequestSchema,
        {
          name: 'N',
          description: 'D',
          languages: [{ short_name: 'en', is_primary: true }],
          lessons: [lesson],
        },
        ['lessons', 0, 'title'],
      ),
    ).toBe(MESSAGES.lessonTitleRequired);
  });

  it('checks the values of a form once per values object, a changed form again', () => {
    const values = { name: 'Sales' };
    const first = checkForm(ZCreateLearnersListRequestSchema, values);
    expect(checkForm(ZCreateLearnersListRequestSchema, values)).toBe(first);
    const changed = { ...values, name: '' };
    expect(checkForm(ZCreateLearnersListRequestSchema, changed)).not.toBe(first);
    expect(checkForm(ZCreateLearnersListRequestSchema, changed).success).toBe(false);
  });
});

describe('a 422 onto the form', () => {
  const errors = {
    'lessons.0.assessment.answers.2.text': [MESSAGES.answerRequired],
    name: [MESSAGES.nameTaken],
    'distribution.start_date': [MESSAGES.deliveryDateRange],
  };

  it('maps dotted paths to the fields on screen and keeps the rest apart', () => {
    const shown = [['name'], ['lessons', 0, 'assessment', 'answers', 2, 'text']];
    expect(fieldErrorsToFields(errors, shown)).toEqual({
      fields: [
        {
          name: ['lessons', 0, 'assessment', 'answers', 2, 'text'],
          errors: [MESSAGES.answerRequired],
        },
        { name: ['name'], errors: [MESSAGES.nameTaken] },
      ],
      unmatched: [MESSAGES.deliveryDateRange],
    });
  });

  it('sets the field errors on the form; other failures are left to the caller', () => {
    const set: unknown[] = [];
    const form = {
      getFieldsError: () => [{ name: ['name'], errors: [], warnings: [] }],
      setFields: (fields: unknown[]) => set.push(...fields),
    } as unknown as FormInstance;
    const failure = {
      message: MESSAGES.nameTaken,
      statusCode: 422,
      errors: { name: [MESSAGES.nameTaken] },
    };
    expect(showFieldErrors(form, failure)).toBe(true);
    expect(set).toEqual([{ name: ['name'], errors: [MESSAGES.nameTaken] }]);
    expect(showFieldErrors(form, { message: 'x', statusCode: 500 })).toBe(false);
  });
});
