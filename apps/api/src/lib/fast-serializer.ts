import fastJson from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

// The default serializer of a route (fastify-type-provider-zod) parses every answer with its zod
// schema, then JSON.stringify()s the copy: for a page of 25 learners with their lists, channels,
// courses and figures, a tenth of the request's CPU (issue 32's profile of the learners list). The
// hot list routes take this one instead: fast-json-stringify compiles the same schema, as JSON
// Schema, into a function that writes the declared properties only (an unknown key never
// reaches the client, as with zod) and still throws on a missing required one. What it does not
// re-check is what the route's own serializer builds with TypeScript's types: enum values,
// uuid and integer formats.

type JsonSchema = { [keyword: string]: unknown };

/** The keywords the serializer reads; formats, patterns and bounds only validate. */
const KEPT = new Set(['type', 'required', 'enum', 'const', 'additionalProperties']);

/** zod's JSON Schema, reduced to what fast-json-stringify writes by. */
const forSerializer = (schema: JsonSchema): JsonSchema => {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    // `.nullable()` is `anyOf: [X, null]`: as `type: [X, 'null']` it is one typeof, where an
    // anyOf would validate the value against each branch on every write.
    const [value, other] = anyOf;
    if (anyOf.length !== 2 || other?.type !== 'null' || typeof value?.type !== 'string') {
      throw new Error('fastResponseSerializer: only X | null unions are supported');
    }
    const plain = forSerializer(value);
    return { ...plain, type: [value.type, 'null'] };
  }
  if (schema.$ref !== undefined) throw new Error('fastResponseSerializer: $ref is not supported');
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (KEPT.has(keyword)) out[keyword] = value;
  }
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => [
        name,
        forSerializer(property),
      ]),
    );
  }
  if (schema.items) out.items = forSerializer(schema.items as JsonSchema);
  return out;
};

/** The JSON Schema a route's zod response schema is written by. */
const serializerSchemaOf = (schema: z.ZodType): JsonSchema =>
  forSerializer(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }));

/**
 * A route's `serializerCompiler`: each response status's zod schema, compiled once. (Fastify
 * hands it the status's schema; its types say the route's.)
 */
export const fastResponseSerializer: FastifySerializerCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) {
    throw new Error('fastResponseSerializer: a response schema is not a zod schema');
  }
  const stringify = fastJson(serializerSchemaOf(schema) as unknown as Schema);
  return (data: unknown) => stringify(data);
};
