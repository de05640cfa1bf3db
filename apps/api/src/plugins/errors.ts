import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

import { ERROR_CODE_STATUS, MESSAGES } from '@ccp/schemas';
import type { TErrorBody, TErrorCode, TFieldErrors, TLocale } from '@ccp/schemas';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { requestLanguage } from '../i18n/language.ts';
import { localizeFieldErrors, localizeMessage, sayText, translateKnown } from '../i18n/messages.ts';
import { t } from '../i18n/texts.ts';
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
  // The message depends on Accept-Language: a shared cache must not hand one language to another.
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/accept-language/i.test(vary)) {
    reply.header('vary', vary ? `${vary}, Accept-Language` : 'Accept-Language');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
};

/**
 * Fastify's own 4xx errors (a body that is not JSON, too large, of an unknown type…) in the
 * product's words, so the clients can translate them and nothing of the request is echoed.
 */
const frameworkClientError = (
  status: number,
): { status: number; code: TErrorCode; message: string } => {
  if (status === 413) {
    return { status, code: 'PAYLOAD_TOO_LARGE', message: MESSAGES.payloadTooLarge };
  }
  if (status === 415) {
    return { status, code: 'UNSUPPORTED_MEDIA_TYPE', message: MESSAGES.unsupportedMediaType };
  }
  // A directory of uploads (403 from the static files) is as absent as a missing file.
  if (status === 404 || status === 403) {
    return { status: 404, code: 'ROUTE_NOT_FOUND', message: MESSAGES.routeNotFound };
  }
  return { status, code: codeForStatus(status), message: MESSAGES.requestMalformed };
};

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`): a path
 * parameter longer than any id names nothing that exists (404, as a malformed uuid does); a
 * path that is not valid percent-encoding is a bad request.
 */
export const frameworkErrors = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void => {
  const say = (message: string) => localizeMessage(message, requestLanguage(request));
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, 404, 'NOT_FOUND', say(MESSAGES.notFound));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void sendError(reply, 400, 'BAD_REQUEST', say(MESSAGES.requestMalformed));
  } else {
    void sendError(reply, 500, 'INTERNAL_ERROR', say(MESSAGES.internalServerError));
  }
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (broken request line or headers,
 * headers too large, headers too slow): answered in the product's error shape, then closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = timeout ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body: TErrorBody = {
    error: timeout
      ? { status, code: 'REQUEST_TIMEOUT', message: MESSAGES.requestTimeout }
      : { status, code: 'BAD_REQUEST', message: MESSAGES.requestMalformed },
  };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/** `/lessons/0/title` → `lessons.0.title`; the body root becomes its context name. */
const fieldPath = (instancePath: string, context: string | undefined): string => {
  const dotted = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  return dotted || context || 'body';
};

// zod's own texts, for the few checks whose message is not one of ours (a body that is not an
// object, say); built on first use.
const zodLocales = new Map<TLocale, ReturnType<typeof z.locales.it>>();
const zodLocale = (lang: Exclude<TLocale, 'en'>) => {
  let locale = zodLocales.get(lang);
  if (!locale) {
    locale = lang === 'it' ? z.locales.it() : z.locales.de();
    zodLocales.set(lang, locale);
  }
  return locale;
};

/** The value a validation issue points at, so zod can name its type ("received number"). */
const inputAt = (root: unknown, instancePath: string): unknown =>
  instancePath
    .split('/')
    .filter(Boolean)
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined,
      root,
    );

const validationMessage = (
  issue: FastifySchemaValidationError,
  request: FastifyRequest,
  context: string | undefined,
  lang: TLocale,
): string => {
  const message = issue.message ?? MESSAGES.invalidDataNoInfo;
  if (lang === 'en') return message;
  const known = translateKnown(message, lang);
  if (known !== undefined) return known;
  const source =
    context === 'querystring'
      ? request.query
      : context === 'headers'
        ? request.headers
        : request.body;
  const raw = {
    ...issue.params,
    code: issue.keyword,
    path: issue.instancePath.split('/').filter(Boolean),
    input: inputAt(source, issue.instancePath),
  };
  const said = zodLocale(lang).localeError(raw as Parameters<z.core.$ZodErrorMap>[0]);
  return (typeof said === 'string' ? said : said?.message) ?? message;
};

/**
 * One error handler: AppError and schema validation map to the spec's error body; any status
 * of 500 or more answers a generic message so internals never leak.
 */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
      const lang = requestLanguage(request);
      const say = (message: string) => localizeMessage(message, lang);
      // A message the locale files do not know is said by its code's text, never in English.
      const sayOrCode = (message: string, code: TErrorCode) =>
        lang === 'en' ? message : (translateKnown(message, lang) ?? t(lang, `errors.${code}`));
      if (error instanceof AppError) {
        const message =
          error.text && lang !== 'en'
            ? sayText(error.text, lang)
            : sayOrCode(error.message, error.code);
        return sendError(reply, error.statusCode, error.code, message, {
          ...(error.errors ? { errors: localizeFieldErrors(error.errors, lang) } : {}),
          ...(error.limit ? { limit: error.limit } : {}),
        });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        // A malformed id in the path is a resource that does not exist, not a form error.
        if (error.validationContext === 'params') {
          return sendError(reply, 404, 'NOT_FOUND', say(MESSAGES.notFound));
        }
        const errors: TFieldErrors = {};
        for (const issue of error.validation) {
          const key = fieldPath(issue.instancePath, error.validationContext);
          (errors[key] ??= []).push(
            validationMessage(issue, request, error.validationContext, lang),
          );
        }
        const first = Object.values(errors)[0]?.[0] ?? say(MESSAGES.invalidDataNoInfo);
        return sendError(reply, 422, 'VALIDATION_FAILED', first, { errors });
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return sendError(reply, status, 'INTERNAL_ERROR', say(MESSAGES.internalServerError));
      }
      // Not ours (Fastify, its plugins, the JSON parser): the product's words, nothing echoed.
      const known = frameworkClientError(status);
      return sendError(reply, known.status, known.code, say(known.message));
    });

    app.setNotFoundHandler((request, reply) =>
      sendError(
        reply,
        404,
        'ROUTE_NOT_FOUND',
        localizeMessage(MESSAGES.routeNotFound, requestLanguage(request)),
      ),
    );
  },
  { name: 'ccp-errors' },
);
