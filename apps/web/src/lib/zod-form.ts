import type { TFieldErrors } from '@ccp/schemas';
import type { FormInstance, FormRule } from 'antd';
import type { z } from 'zod';

// The bridge between the shared zod schemas of @ccp/schemas and antd forms: a form never
// re-types a rule of spec §5. Rules validate with the same schema object the API uses; the
// messages are the schema's (English, the spec's) translated by their key; a 422 from the API
// lands under the field its dotted path names (`lessons.0.assessment.answers.2.text`).

export type TFieldPath = (string | number)[];
type TSchema = z.ZodType;
type TTranslate = (text: string) => string;

const defOf = (schema: TSchema) =>
  (schema as unknown as { def: Record<string, unknown> & { type: string } }).def;

/** The schema inside optional/nullable/default/pipe (and preprocess) wrappers. */
const unwrap = (schema: TSchema): TSchema => {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly'].includes(def.type)) {
      current = def.innerType as TSchema;
    } else if (def.type === 'pipe') {
      // A preprocess is a pipe from a transform: its fields are those of the schema it feeds.
      const input = def.in as TSchema;
      current = (defOf(input).type === 'transform' ? def.out : input) as TSchema;
    } else return current;
  }
};

/** The schema of the field at `path` in an object schema, or undefined where there is none. */
export const fieldSchemaAt = (schema: TSchema, path: TFieldPath): TSchema | undefined => {
  let current: TSchema | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const def = defOf(unwrap(current));
    if (def.type === 'object' && typeof segment === 'string') {
      current = (def.shape as Record<string, TSchema>)[segment];
    } else if (def.type === 'array' && typeof segment === 'number') {
      current = def.element as TSchema;
    } else return undefined;
  }
  return current;
};

/** Whether the schema refuses an empty field (undefined or ''): the form shows the asterisk. */
export const isRequiredField = (schema: TSchema, path: TFieldPath): boolean => {
  const field = fieldSchemaAt(schema, path);
  if (!field) return false;
  return !field.safeParse(undefined).success && !field.safeParse('').success;
};

const checked = new WeakMap<object, WeakMap<TSchema, ReturnType<TSchema['safeParse']>>>();

/**
 * The schema's check of a form's values, once per values object: an antd form's store is a new
 * object after each change (`getFieldsValue(true)` returns it), so the rules of every field
 * validated together, and the page's own check of the same change, share one parse.
 */
export const checkForm = (schema: TSchema, values: unknown) => {
  if (typeof values !== 'object' || values === null) return schema.safeParse(values);
  let bySchema = checked.get(values);
  if (!bySchema) {
    bySchema = new WeakMap();
    checked.set(values, bySchema);
  }
  let result = bySchema.get(schema);
  if (!result) {
    result = schema.safeParse(values);
    bySchema.set(schema, result);
  }
  return result;
};

const samePath = (a: readonly PropertyKey[], b: TFieldPath) =>
  a.length === b.length && a.every((segment, index) => segment === b[index]);

/**
 * The first message the schema gives for `path` when the whole form is validated: cross-field
 * rules (an e-mail required for a channel) land on their field too. Null when the field is fine.
 */
export const fieldIssue = (schema: TSchema, values: unknown, path: TFieldPath): string | null => {
  const result = checkForm(schema, values);
  if (result.success) return null;
  return result.error.issues.find((issue) => samePath(issue.path, path))?.message ?? null;
};

/**
 * `Form.Item` props for a field: its name, the rule that validates it with the shared schema
 * (messages translated with `translate`), and `required` for the asterisk.
 */
export const schemaField = (schema: TSchema, translate: TTranslate) => {
  return (path: TFieldPath | string) => {
    const name = typeof path === 'string' ? [path] : path;
    const rule: FormRule = (form: Pick<FormInstance, 'getFieldsValue'>) => ({
      validator: async () => {
        const message = fieldIssue(schema, form.getFieldsValue(true), name);
        if (message) throw new Error(translate(message));
      },
    });
    return { name, rules: [rule], required: isRequiredField(schema, name) };
  };
};

/** `lessons.0.title` → `['lessons', 0, 'title']` (numeric segments are list indexes). */
export const pathOf = (dotted: string): TFieldPath =>
  dotted.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));

/**
 * A 422's field errors as antd field data, split into those the form shows (a field with that
 * name is on screen) and the rest, which the page must show another way.
 */
export const fieldErrorsToFields = (
  errors: TFieldErrors,
  shownFields: readonly TFieldPath[],
): { fields: { name: TFieldPath; errors: string[] }[]; unmatched: string[] } => {
  const fields: { name: TFieldPath; errors: string[] }[] = [];
  const unmatched: string[] = [];
  for (const [dotted, messages] of Object.entries(errors)) {
    const name = pathOf(dotted);
    if (shownFields.some((shown) => samePath(shown, name))) fields.push({ name, errors: messages });
    else unmatched.push(...messages);
  }
  return { fields, unmatched };
};

/** `field(path)` of a schema form: `Form.Item` props for one field. */
export type TSchemaField = ReturnType<typeof schemaField>;
