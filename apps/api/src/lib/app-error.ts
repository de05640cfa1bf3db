import { ERROR_CODE_STATUS, MESSAGES } from '@ccp/schemas';
import type { TErrorCode, TFieldErrors, TLimitPayload } from '@ccp/schemas';

/** The one error type routes throw; the error handler turns it into `{ error: {...} }`. */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly errors: TFieldErrors | undefined;
  readonly limit: TLimitPayload | undefined;

  constructor(
    code: TErrorCode,
    message: string,
    extra: { errors?: TFieldErrors; limit?: TLimitPayload; status?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = extra.status ?? ERROR_CODE_STATUS[code];
    this.errors = extra.errors;
    this.limit = extra.limit;
  }
}

export const notFound = (message: string = MESSAGES.notFound) => new AppError('NOT_FOUND', message);

/** A 422 with field errors; the message is the first field's first error, as Laravel does. */
export const validationError = (errors: TFieldErrors): AppError => {
  const first = Object.values(errors)[0]?.[0] ?? MESSAGES.invalidDataNoInfo;
  return new AppError('VALIDATION_FAILED', first, { errors });
};
