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
  /** Error statuses only some routes answer (409 a conflict, 429 too many attempts). */
  'x-errors'?: readonly RouteSpecificError[];
};

export type RouteSpecificError = 409 | 429;

/** What each specific error status means, for the document. */
const SPECIFIC_ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'No token, or an expired or revoked one.',
  403: 'Not allowed: the role, the token’s scopes, or 2FA not done.',
  404: 'No such id, or one of another company.',
  409: 'In conflict with the current state (see the operation’s description).',
  422: 'Invalid fields: `errors` by dotted path.',
  429: 'Too many attempts: wait `Retry-After` seconds.',
};

/**
 * The specific error statuses a route answers besides the 4XX range (issue 32, so generated
 * clients can tell them apart): 401 and 403 on every signed-in route, 404 with a path parameter,
 * 422 with anything validated, and what the route names itself (`x-errors`).
 */
const specificErrors = (
  input: TransformInput,
  schema: Record<string, unknown>,
  named: readonly number[],
) => {
  const statuses = new Set<number>(named);
  const config = (input.route as { config?: { auth?: unknown } } | undefined)?.config;
  if (config?.auth !== false) {
    statuses.add(401);
    statuses.add(403);
  }
  if (input.url.includes(':') || schema.params) statuses.add(404);
  if (schema.body || schema.querystring || schema.params || schema['x-body']) statuses.add(422);
  return [...statuses].sort((a, b) => a - b);
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
    'x-errors': namedErrors,
    ...schema
  } = (input.schema ?? {}) as Record<string, unknown> & OpenApiExtras;
  const errorStatuses = specificErrors(input, { ...schema, 'x-body': bodies }, namedErrors ?? []);
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
  for (const status of errorStatuses) {
    responses[String(status)] ??= {
      description: SPECIFIC_ERROR_DESCRIPTIONS[status],
      content: jsonContent(error),
    };
  }
  responses['4xx'] = { description: ERROR_DESCRIPTION, content: jsonContent(error) };
  responses['5xx'] = { description: SERVER_ERROR_DESCRIPTION, content: jsonContent(error) };
  return result;
};
