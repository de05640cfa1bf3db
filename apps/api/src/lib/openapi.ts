import { ZErrorBodySchema } from '@ccp/schemas';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';

// The served OpenAPI document (/api/docs/json) must describe every status and media type a route
// answers (issue 11 §7): every operation documents its errors, a route that answers CSV says so,
// and a body that differs between JSON and multipart is documented once per media type.

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type JsonSchema = Record<string, unknown>;

/** Route schema keys read only by this transform (Fastify ignores them; see context.ts). */
export type OpenApiExtras = {
  /** The media type of a success status that is not JSON, e.g. `{ 200: 'text/csv' }`. */
  'x-media'?: Record<number, string>;
  /** The request body per media type, when JSON and multipart take different fields. */
  'x-body'?: Record<string, z.ZodType>;
  /** A route that answers a browser with a redirect (302, no body): where it sends it. */
  'x-redirect'?: string;
};

const ERROR_DESCRIPTION =
  'Error, always `{error: {status, code, message, errors?, limit?}}`: 400 a body that cannot be read, 401 no or an expired token, 402 a plan limit (`limit`), 403 not allowed or 2FA not done, 404 unknown or another company’s id, 408 an upload that stalled, 413 too large, 415 another media type, 422 invalid fields (`errors` by dotted path), 429 too many sign-in attempts (`Retry-After`).';
const SERVER_ERROR_DESCRIPTION =
  'Server error, `{error: {status, code, message}}` with a generic message: 500, or 502/503 from the AI service.';

/** A zod schema as the JSON schema the document holds, converted as the routes' own are. */
const toJsonSchema = (input: TransformInput, schema: z.ZodType, part: 'body' | 'response') => {
  const probe = jsonSchemaTransform({
    ...input,
    schema: part === 'body' ? { body: schema } : { response: { 200: schema } },
  }).schema as { body?: JsonSchema; response?: Record<string, JsonSchema> };
  return (part === 'body' ? probe.body : probe.response?.['200']) ?? {};
};

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** fastify-type-provider-zod's transform, plus the errors, media types and bodies above. */
export const openApiTransform = (input: TransformInput) => {
  const {
    'x-media': media,
    'x-body': bodies,
    'x-redirect': redirect,
    ...schema
  } = (input.schema ?? {}) as Record<string, unknown> & OpenApiExtras;
  const result = jsonSchemaTransform({ ...input, schema });
  const out = result.schema as (JsonSchema & { response?: Record<string, JsonSchema> }) | undefined;
  if (!out || out.hide) return result;

  if (bodies) {
    out.body = {
      content: Object.fromEntries(
        Object.entries(bodies).map(([type, body]) => [
          type,
          { schema: toJsonSchema(input, body, 'body') },
        ]),
      ),
    };
  }
  const responses = (out.response ??= {});
  for (const [status, type] of Object.entries(media ?? {})) {
    const success = responses[status] ?? { type: 'string' };
    const { description, ...body } = success;
    responses[status] = {
      description: typeof description === 'string' ? description : 'Default Response',
      content: { [type]: { schema: body } },
    };
  }
  // `type: 'null'`: @fastify/swagger documents a response with no body only so (its README).
  if (redirect) responses['302'] = { description: redirect, type: 'null' };
  const error = toJsonSchema(input, ZErrorBodySchema, 'response');
  responses['4xx'] = { description: ERROR_DESCRIPTION, content: jsonContent(error) };
  responses['5xx'] = { description: SERVER_ERROR_DESCRIPTION, content: jsonContent(error) };
  return result;
};
