import { ERROR_CODE_STATUS, MESSAGES } from '@ccp/schemas';
import type { TErrorCode, TFieldErrors, TLimitPayload } from '@ccp/schemas';

import { sayText } from '../i18n/messages.ts';
import type { TLocalText } from '../i18n/messages.ts';

/**
 * The one error type routes throw; the error handler turns it into `{ error: {...} }` in the
 * request's language. The message is an English MESSAGES text, or a key with its values
 * (`messageText('importCsvBroken', { line })`) when it is filled in.
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly errors: TFieldErrors | undefined;
  readonly limit: TLimitPayload | undefined;
  /** The message's key and values, when it was given as such. */
  readonly text: TLocalText | undefined;

  constructor(
    code: TErrorCode,
    message: string | TLocalText,
    extra: { errors?: TFieldErrors; limit?: TLimitPayload; status?: number } = {},
  ) {
    super(typeof message === 'string' ? message : sayText(message, 'en'));
    this.name = 'AppError';
    this.code = code;
    this.statusCode = extra.status ?? ERROR_CODE_STATUS[code];
    this.errors = extra.errors;
    this.limit = extra.limit;
    this.text = typeof message === 'string' ? undefined : message;
  }
}

export const notFound = (message: string | TLocalText = MESSAGES.notFound) =>
  new AppError('NOT_FOUND', message);

/** A 422 with field errors; the message is the first field's first error, as Laravel does. */
export const validationError = (errors: TFieldErrors): AppError => {
  const first = Object.values(errors)[0]?.[0] ?? MESSAGES.invalidDataNoInfo;
  return new AppError('VALIDATION_FAILED', first, { errors });
};
