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
      // Fastify's own 4xx (a body too large, a bad content type, broken JSON).
      const code = codeForStatus(status);
      return sendError(reply, status, code, sayOrCode(error.message, code));
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
