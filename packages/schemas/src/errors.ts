import { z } from 'zod';

// String error codes shared by the API (which sends them) and the clients (which translate
// `errors.<CODE>` and decide what to show). The HTTP status of each code is fixed here.
export const ERROR_CODE_STATUS = {
  BAD_REQUEST: 400,
  INVALID_CREDENTIALS: 400,
  UNAUTHENTICATED: 401,
  INVALID_REFRESH_TOKEN: 401,
  TWO_FACTOR_REQUIRED: 403,
  PLAN_LIMIT_REACHED: 402,
  FORBIDDEN: 403,
  NO_PRIVILEGES: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  EXPORT_NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  INVALID_CODE: 422,
  CODE_ALREADY_USED: 422,
  INVALID_LINK: 400,
  LAST_ADMINISTRATOR: 409,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  AI_PROVIDER_ERROR: 502,
  AI_NOT_CONFIGURED: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_CODE_STATUS;
export const ERROR_CODES = Object.keys(ERROR_CODE_STATUS) as TErrorCode[];

/** Field errors keyed by dotted path, e.g. `lessons.0.assessment.answers.2.text`. */
export const ZFieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type TFieldErrors = z.infer<typeof ZFieldErrorsSchema>;

/** The 402 payload: which plan function, how much was required, what the plan allows. */
export const ZLimitPayloadSchema = z.object({
  feature: z.string(),
  required: z.number().int(),
  limit: z.number().int(),
});
export type TLimitPayload = z.infer<typeof ZLimitPayloadSchema>;

export const ZErrorBodySchema = z.object({
  error: z.object({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    errors: ZFieldErrorsSchema.optional(),
    limit: ZLimitPayloadSchema.optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBodySchema>;

/** The upgrade modal's text key: lowercased, spaces to underscores, dots removed (spec §6). */
export const errorTextKey = (text: string): string =>
  text.toLowerCase().replace(/\s+/g, '_').replace(/\./g, '');
