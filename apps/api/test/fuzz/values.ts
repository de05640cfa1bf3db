// Values for the OpenAPI fuzz test: a seeded random source, a plausible valid value for a JSON
// schema of the served document, and the invalid and boundary values to try in its place.

export type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  default?: unknown;
  $ref?: string;
};

/** mulberry32: small, fast and the same sequence for the same seed on every machine. */
export const createRandom = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    /** Up to `count` items, in a random order. */
    sample: <T>(items: readonly T[], count: number): T[] => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index -= 1) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy.slice(0, count);
    },
  };
};
export type Random = ReturnType<typeof createRandom>;

/** Strings an attacker tries in every text field and parameter. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  "' OR '1'='1",
  '1; DROP TABLE learners; --',
  '" OR ""="',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\ud800',
  '🙂'.repeat(50),
  'x'.repeat(10_000),
  '{{7*7}}',
  '${jndi:ldap://127.0.0.1/a}',
  'NaN',
  '-1',
  '1e309',
  'true',
  'null',
  '[]',
  '{}',
];

export const OTHER_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  12345,
  1.5,
  'x',
  [],
  {},
  [1],
  { a: 1 },
];

const typeOf = (schema: Schema): string | undefined => {
  const { type } = schema;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
};

export const resolver = (document: { components?: { schemas?: Record<string, Schema> } }) => {
  const resolve = (schema: Schema | undefined): Schema => {
    if (!schema) return {};
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      return resolve(document.components?.schemas?.[name]);
    }
    if (schema.allOf) {
      return schema.allOf.map(resolve).reduce<Schema>(
        (merged, part) => ({
          ...merged,
          ...part,
          properties: { ...merged.properties, ...part.properties },
          required: [...(merged.required ?? []), ...(part.required ?? [])],
        }),
        {},
      );
    }
    return schema;
  };
  return resolve;
};

export type ValueContext = {
  random: Random;
  resolve: (schema: Schema | undefined) => Schema;
  /** A real id for a property or parameter name (a learner, a list, a course…), if there is one. */
  idFor: (name: string) => string | undefined;
};

/** A value the schema accepts, as far as it says (formats, bounds, enums), real ids where known. */
export const validValue = (
  raw: Schema | undefined,
  context: ValueContext,
  name = '',
  depth = 0,
): unknown => {
  const schema = context.resolve(raw);
  const { random } = context;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const options = union.map(context.resolve).filter((option) => typeOf(option) !== 'null');
    return validValue(random.pick(options.length > 0 ? options : union), context, name, depth);
  }
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'uuid') return context.idFor(name) ?? crypto.randomUUID();
      if (schema.format === 'email') return `fuzz${random.int(1e6)}@example.test`;
      if (schema.format === 'date') return '2026-12-01';
      if (schema.format === 'date-time') return '2026-12-01T08:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.test/a';
      if (schema.format === 'binary') return 'file';
      // Letters only (names refuse digits), different every time (names must be unique).
      const min = schema.minLength ?? 1;
      const length = Math.min(Math.max(min, 10), schema.maxLength ?? 10);
      return Array.from({ length }, (_, index) =>
        String.fromCharCode((index === 0 ? 65 : 97) + random.int(26)),
      ).join('');
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 10;
      return Math.min(max, Math.max(min, 1));
    }
    case 'boolean':
      return random.next() < 0.5;
    case 'array': {
      if (depth > 4) return [];
      const count = Math.max(schema.minItems ?? 0, 1);
      return Array.from({ length: Math.min(count, schema.maxItems ?? count) }, () =>
        validValue(schema.items, context, name, depth + 1),
      );
    }
    case 'object': {
      if (depth > 4) return {};
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || random.next() < 0.5) {
          value[key] = validValue(property, context, key, depth + 1);
        }
      }
      return value;
    }
    default:
      return 'x';
  }
};

/** Invalid and boundary values for a schema: wrong types, limits ±1, hostile strings, huge arrays. */
export const badValues = (raw: Schema | undefined, context: ValueContext, name = ''): unknown[] => {
  const schema = context.resolve(raw);
  const values: unknown[] = [...OTHER_TYPES];
  switch (typeOf(schema)) {
    case 'string':
      values.push(...HOSTILE_STRINGS);
      if (schema.maxLength !== undefined) {
        values.push('a'.repeat(schema.maxLength), 'a'.repeat(schema.maxLength + 1));
      }
      if (schema.format === 'uuid')
        values.push(crypto.randomUUID(), 'not-a-uuid', `${crypto.randomUUID()}x`);
      break;
    case 'integer':
    case 'number':
      values.push(-1, 0, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), Number.MAX_VALUE, '12', '1e3');
      if (typeof schema.minimum === 'number') values.push(schema.minimum - 1, schema.minimum);
      if (typeof schema.maximum === 'number') values.push(schema.maximum + 1, schema.maximum);
      break;
    case 'array': {
      const item = context.resolve(schema.items);
      const one = validValue(item, context, name);
      values.push(
        [null],
        [[]],
        Array.from({ length: 1000 }, () => one),
      );
      // The defect of issue 11 §3: tens of thousands of ids in one request.
      if (item.format === 'uuid' || typeOf(item) === 'object') {
        values.push(
          Array.from({ length: 40_000 }, () =>
            item.format === 'uuid' ? crypto.randomUUID() : validValue(item, context, name),
          ),
        );
      }
      if (schema.maxItems !== undefined) {
        values.push(Array.from({ length: schema.maxItems + 1 }, () => one));
      }
      break;
    }
    case 'object':
      values.push({ __proto__: { admin: true } }, JSON.parse('{"__proto__":{"polluted":1}}'), {
        constructor: { prototype: { polluted: 1 } },
      });
      break;
    default:
      values.push(...HOSTILE_STRINGS.slice(0, 6));
  }
  return values;
};
