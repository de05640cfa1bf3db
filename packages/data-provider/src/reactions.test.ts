import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { ApiError } from './api-error.ts';
import { reactionFor } from './reactions.ts';

const failure = (status: number, message = '', code = `HTTP_${status}`, extra = {}) =>
  new ApiError({ status, code, message, ...extra });

describe('reactionFor: spec §7 client handling of answers', () => {
  it('no response: toast with the network error', () => {
    expect(reactionFor(failure(0, MESSAGES.networkError, 'NETWORK_ERROR'), 'other')).toEqual({
      type: 'toast',
      message: 'Network error. Failed to receive response from server.',
    });
  });

  it('5xx: toast with the internal server error text', () => {
    expect(reactionFor(failure(500, 'boom'), 'other')).toEqual({
      type: 'toast',
      message: 'Internal server error happened. Please try again later.',
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
    });
  });

  it('anything else: toast "Server error:" plus the text', () => {
    expect(
      reactionFor(failure(409, 'Two-factor authentication is already enabled.'), 'other'),
    ).toEqual({
      type: 'toast',
      message: 'Server error: Two-factor authentication is already enabled.',
    });
  });
});
