import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { ApiError } from './api-error.ts';
import { failureIs, reactionFor } from './reactions.ts';

const failure = (status: number, message = '', code = `HTTP_${status}`, extra = {}) =>
  new ApiError({ status, code, message, ...extra });

describe('reactionFor: spec §7 client handling of answers', () => {
  it('no response: toast with the network error', () => {
    expect(reactionFor(failure(0, MESSAGES.networkError, 'NETWORK_ERROR'), 'other')).toEqual({
      type: 'toast',
      message: 'Network error. Failed to receive response from server.',
      key: 'networkError',
    });
  });

  it('5xx: toast with the internal server error text', () => {
    expect(reactionFor(failure(500, 'boom'), 'other')).toEqual({
      type: 'toast',
      message: 'Internal server error happened. Please try again later.',
      key: 'internalServerError',
    });
    expect(reactionFor(failure(503, ''), 'other').type).toBe('toast');
  });

  it('an invalid refresh token logs out, whatever its status', () => {
    expect(reactionFor(failure(500, MESSAGES.invalidRefreshToken), 'other')).toEqual({
      type: 'logout',
    });
    expect(reactionFor(failure(401, 'x', 'INVALID_REFRESH_TOKEN'), 'refresh')).toEqual({
      type: 'logout',
    });
  });

  it('402: upgrade with the server text and limit', () => {
    const limit = { feature: 'learners', required: 7, limit: 6 };
    expect(
      reactionFor(
        failure(402, 'Learners limit reached.', 'PLAN_LIMIT_REACHED', { limit }),
        'other',
      ),
    ).toEqual({
      type: 'upgrade',
      message: 'Learners limit reached.',
      limit,
    });
    expect(reactionFor(failure(402, ''), 'other')).toEqual({ type: 'upgrade', message: null });
  });

  it.each([422, 403, 429])(
    '%i: error modal with the server text, or the no-info text',
    (status) => {
      expect(reactionFor(failure(status, 'The email must be valid.'), 'other')).toEqual({
        type: 'errorModal',
        message: 'The email must be valid.',
      });
      expect(reactionFor(failure(status, ''), 'other')).toEqual({
        type: 'errorModal',
        message: 'Invalid data sent. No info from server.',
        key: 'invalidDataNoInfo',
      });
    },
  );

  it('401 on refresh logs out; on logout it is ignored', () => {
    expect(reactionFor(failure(401, 'Unauthenticated.'), 'refresh')).toEqual({ type: 'logout' });
    expect(reactionFor(failure(401, 'Unauthenticated.'), 'logout')).toEqual({ type: 'silent' });
  });

  it('404: toast with the server message', () => {
    expect(reactionFor(failure(404, 'Not found.'), 'other')).toEqual({
      type: 'toast',
      message: 'Not found.',
    });
  });

  it('wrong credentials are handled silently (the login page says so)', () => {
    expect(reactionFor(failure(400, 'The user credentials were incorrect.'), 'other')).toEqual({
      type: 'silent',
    });
  });

  it('"Too Many Attempts." opens the slow-down modal', () => {
    expect(reactionFor(failure(429, 'Too Many Attempts.'), 'other')).toEqual({
      type: 'errorModal',
      message: 'Wow, slow down. Too many requests. Please wait and try again.',
      key: 'slowDown',
    });
  });

  it('anything else: toast "Server error:" plus the text', () => {
    expect(
      reactionFor(failure(409, 'Two-factor authentication is already enabled.'), 'other'),
    ).toEqual({
      type: 'toast',
      message: 'Server error: Two-factor authentication is already enabled.',
      key: 'serverErrorPrefix',
      detail: 'Two-factor authentication is already enabled.',
    });
  });
});

describe('reactionFor decides on the code, whatever the language of the message', () => {
  it('TOO_MANY_ATTEMPTS in Italian opens the slow-down modal, by its key', () => {
    expect(reactionFor(failure(429, 'Troppi tentativi.', 'TOO_MANY_ATTEMPTS'), 'other')).toEqual({
      type: 'errorModal',
      message: MESSAGES.slowDown,
      key: 'slowDown',
    });
  });

  it('INVALID_CREDENTIALS in German stays silent', () => {
    const error = failure(400, 'Die Anmeldedaten sind falsch.', 'INVALID_CREDENTIALS');
    expect(reactionFor(error, 'other')).toEqual({ type: 'silent' });
  });

  it('INVALID_REFRESH_TOKEN in Italian logs out', () => {
    const error = failure(401, 'Il token di aggiornamento non è valido.', 'INVALID_REFRESH_TOKEN');
    expect(reactionFor(error, 'other')).toEqual({ type: 'logout' });
  });

  it("shows a translated server text as sent, without a key (it is the server's)", () => {
    expect(
      reactionFor(
        failure(422, "L'indirizzo e-mail deve essere valido.", 'VALIDATION_FAILED'),
        'other',
      ),
    ).toEqual({ type: 'errorModal', message: "L'indirizzo e-mail deve essere valido." });
    expect(reactionFor(failure(404, 'Nicht gefunden.', 'NOT_FOUND'), 'other')).toEqual({
      type: 'toast',
      message: 'Nicht gefunden.',
    });
  });

  it('a known code wins over an English text that names another failure', () => {
    const error = failure(422, MESSAGES.tooManyAttempts, 'VALIDATION_FAILED');
    expect(reactionFor(error, 'other')).toEqual({
      type: 'errorModal',
      message: MESSAGES.tooManyAttempts,
    });
  });

  it('"Server error:" keeps its key with an empty detail left out', () => {
    expect(reactionFor(failure(409, ''), 'other')).toEqual({
      type: 'toast',
      message: 'Server error:',
      key: 'serverErrorPrefix',
    });
  });
});

describe('failureIs', () => {
  it('matches by code, or by the spec text when no known code came', () => {
    expect(failureIs(failure(422, 'Codice non valido.', 'INVALID_CODE'), 'INVALID_CODE')).toBe(
      true,
    );
    expect(failureIs(failure(422, MESSAGES.invalidCode), 'INVALID_CODE')).toBe(true);
    expect(failureIs(failure(422, MESSAGES.invalidCode, 'VALIDATION_FAILED'), 'INVALID_CODE')).toBe(
      false,
    );
    expect(failureIs(failure(404, 'Not found.', 'NOT_FOUND'), 'INVALID_CODE')).toBe(false);
  });
});
