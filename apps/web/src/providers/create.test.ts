import { ApiError } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { signInFailures } from './create.ts';

// The login and 2FA pages decide what they show by the failure's code, not by its text: the
// server says it in the user's language.

const apiError = (status: number, code: string, message: string) =>
  new ApiError({ status, code, message });
const loginError = (message: string, code?: string) =>
  Object.assign(new Error(message), { name: 'Login Error', ...(code ? { code } : {}) });

describe('signInFailures', () => {
  it('recognises wrong credentials by code, in any language', () => {
    const german = apiError(400, 'INVALID_CREDENTIALS', 'Die Anmeldedaten sind falsch.');
    expect(signInFailures.invalidCredentials(german)).toBe(true);
    expect(signInFailures.invalidCredentials(apiError(429, 'TOO_MANY_ATTEMPTS', 'Zu viele.'))).toBe(
      false,
    );
  });

  it('recognises the English text from a server that sends no code', () => {
    expect(
      signInFailures.invalidCredentials(apiError(400, 'HTTP_400', MESSAGES.invalidCredentials)),
    ).toBe(true);
  });

  it('recognises a wrong code and a wrong setup pair by INVALID_CODE', () => {
    expect(signInFailures.invalidOtp(loginError(MESSAGES.otpInvalid, 'INVALID_CODE'))).toBe(true);
    expect(signInFailures.wrongSetupCodes(loginError(MESSAGES.otpWrongSetup, 'INVALID_CODE'))).toBe(
      true,
    );
    expect(signInFailures.invalidOtp(loginError(MESSAGES.twoFactorNotEnabled))).toBe(false);
    expect(signInFailures.invalidOtp(apiError(401, 'UNAUTHENTICATED', 'Non autenticato.'))).toBe(
      false,
    );
  });
});
