import { ERROR_CODE_STATUS, MESSAGES } from '@ccp/schemas';
import type { TErrorBody, TErrorCode, TFieldErrors } from '@ccp/schemas';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

import { AppError } from '../lib/app-error.ts';

const codeForStatus = (status: number): TErrorCode => {
  const found = (Object.entries(ERROR_CODE_STATUS) as [TErrorCode, number][]).find(
    ([, value]) => value === status,
  );
  return found ? found[0] : status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
};

export const sendError = (
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: Partial<Pick<TErrorBody['error'], 'errors' | 'limit'>> = {},
) => {
  const body: TErrorBody = { error: { status, code, message, ...extra } };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
};

/** `/lessons/0/title` → `lessons.0.title`; the body root becomes its context name. */
const fieldPath = (instancePath: string, context: string | undefined): string => {
  const dotted = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  return dotted || context || 'body';
};

/**
 * One error handler: AppError and schema validation map to the spec's error body; any status
 * of 500 or more answers a generic message so internals never leak.
 */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
      if (error instanceof AppError) {
        return sendError(reply, error.statusCode, error.code, error.message, {
          ...(error.errors ? { errors: error.errors } : {}),
          ...(error.limit ? { limit: error.limit } : {}),
        });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        // A malformed id in the path is a resource that does not exist, not a form error.
        if (error.validationContext === 'params') {
          return sendError(reply, 404, 'NOT_FOUND', MESSAGES.notFound);
        }
        const errors: TFieldErrors = {};
        for (const issue of error.validation) {
          const key = fieldPath(issue.instancePath, error.validationContext);
          (errors[key] ??= []).push(issue.message ?? MESSAGES.invalidDataNoInfo);
        }
        const first = Object.values(errors)[0]?.[0] ?? MESSAGES.invalidDataNoInfo;
        return sendError(reply, 422, 'VALIDATION_FAILED', first, { errors });
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return sendError(reply, status, 'INTERNAL_ERROR', MESSAGES.internalServerError);
      }
      return sendError(reply, status, codeForStatus(status), error.message);
    });

    app.setNotFoundHandler((request, reply) =>
      sendError(reply, 404, 'ROUTE_NOT_FOUND', MESSAGES.routeNotFound),
    );
  },
  { name: 'ccp-errors' },
);
