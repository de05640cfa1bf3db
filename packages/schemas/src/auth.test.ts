import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import {
  ZLoginRequestSchema,
  ZLoginResponseSchema,
  ZQrCodeResponseSchema,
  ZRefreshRequestSchema,
  ZTwoFactorTokenRequestSchema,
  ZTwoFactorVerifyRequestSchema,
  ZUserSchema,
} from './auth.ts';
import { PLATFORM } from './constants.ts';
import { MESSAGES } from './messages.ts';

// The first message per dotted path, as the API reports it.
const fieldErrors = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
};

const login = { username: 'Creator@Example.com', password: 'secret', platform: PLATFORM };

describe('ZLoginRequestSchema', () => {
  it('accepts an email as username and lowercases it', () => {
    expect(ZLoginRequestSchema.parse({ ...login, username: '  Creator@Example.COM ' })).toEqual({
      username: 'creator@example.com',
      password: 'secret',
      platform: PLATFORM,
    });
  });

  it('requires the username, password and platform', () => {
    expect(fieldErrors(ZLoginRequestSchema, {})).toEqual({
      username: MESSAGES.required,
      password: MESSAGES.required,
      platform: MESSAGES.required,
    });
    expect(fieldErrors(ZLoginRequestSchema, { ...login, username: '  ', password: '' })).toEqual({
      username: MESSAGES.required,
      password: MESSAGES.required,
    });
  });

  it('refuses a username that is not an email', () => {
    expect(fieldErrors(ZLoginRequestSchema, { ...login, username: 'creator' })).toEqual({
      username: MESSAGES.emailInvalid,
    });
  });

  it('refuses a username longer than 255 characters', () => {
    const email = `${'a'.repeat(243)}@example.com`;
    expect(email).toHaveLength(255);
    expect(ZLoginRequestSchema.safeParse({ ...login, username: email }).success).toBe(true);
    expect(fieldErrors(ZLoginRequestSchema, { ...login, username: `a${email}` })).toEqual({
      username: MESSAGES.emailInvalid,
    });
  });

  it('accepts only the content creators platform', () => {
    for (const platform of ['learners_platform', 'CONTENT_CREATORS_PLATFORM', '', 1]) {
      expect(fieldErrors(ZLoginRequestSchema, { ...login, platform })).toEqual({
        platform: MESSAGES.invalidPlatform,
      });
    }
  });
});

describe('ZRefreshRequestSchema', () => {
  it('needs a refresh token and the platform', () => {
    expect(ZRefreshRequestSchema.parse({ refresh_token: 'abc', platform: PLATFORM })).toEqual({
      refresh_token: 'abc',
      platform: PLATFORM,
    });
    expect(fieldErrors(ZRefreshRequestSchema, { refresh_token: '', platform: 'x' })).toEqual({
      refresh_token: MESSAGES.required,
      platform: MESSAGES.invalidPlatform,
    });
  });
});

describe('ZTwoFactorTokenRequestSchema', () => {
  const body = { refresh_token: 'r', platform: PLATFORM, code: '012345' };

  it('accepts a 6-digit code, ignoring spaces inside it', () => {
    expect(ZTwoFactorTokenRequestSchema.parse(body).code).toBe('012345');
    expect(ZTwoFactorTokenRequestSchema.parse({ ...body, code: ' 012 345 ' }).code).toBe('012345');
  });

  it('refuses codes of 5 or 7 digits or with letters', () => {
    for (const code of ['01234', '0123456', '01234a', '']) {
      expect(fieldErrors(ZTwoFactorTokenRequestSchema, { ...body, code })).toEqual({
        code: MESSAGES.invalidCode,
      });
    }
  });

  it('requires the platform and a code (from the authenticator, or a recovery code)', () => {
    expect(fieldErrors(ZTwoFactorTokenRequestSchema, { refresh_token: 'r' })).toEqual({
      platform: MESSAGES.required,
      code: MESSAGES.codeOrRecoveryRequired,
    });
  });
});

describe('ZTwoFactorVerifyRequestSchema', () => {
  const pairOf = (code: unknown) => ZTwoFactorVerifyRequestSchema.safeParse({ code });

  it.each([
    ['an array of two codes', ['123456', '654321']],
    ['an array with padded codes', [' 123456', '654321 ']],
    ['one string of 12 digits', '123456654321'],
    ['two groups separated by a space', '123456 654321'],
    ['two groups separated by a comma', '123456,654321'],
    ['two groups separated by a comma and spaces', ' 123456 , 654321 '],
  ])('normalises %s to a pair', (_name, code) => {
    const result = pairOf(code);
    expect(result.success).toBe(true);
    expect(result.data?.code).toEqual(['123456', '654321']);
  });

  it.each([
    ['one code', ['123456']],
    ['three codes', ['123456', '654321', '111111']],
    ['a 5-digit code in the array', ['12345', '654321']],
    ['a 7-digit code in the array', ['1234567', '654321']],
    ['letters', ['12345a', '654321']],
    ['11 digits', '12345654321'],
    ['13 digits', '1234566543210'],
    ['another separator', '123456-654321'],
    ['a number', 123456654321],
    ['an empty string', ''],
  ])('refuses %s', (_name, code) => {
    expect(fieldErrors(ZTwoFactorVerifyRequestSchema, { code })).toEqual({
      code: MESSAGES.twoFactorCodesFormat,
    });
  });

  it('requires the code', () => {
    expect(fieldErrors(ZTwoFactorVerifyRequestSchema, {})).toEqual({ code: MESSAGES.required });
  });
});

describe('response schemas', () => {
  const user = {
    uuid: 'u',
    email: 'a@b.c',
    first_name: 'A',
    last_name: 'B',
    avatar: null,
    locale: 'it',
    is_admin: true,
    is_2fa_enabled: false,
    company: { uuid: 'c', name: 'Acme' },
  };

  it('ZUserSchema keeps only the public fields of a user', () => {
    expect(
      ZUserSchema.parse({
        ...user,
        password_hash: 'x',
        totp_secret: 'y',
        totp_pending_secret: 'z',
      }),
    ).toEqual(user);
    expect(ZUserSchema.safeParse({ ...user, locale: 'fr' }).success).toBe(false);
  });

  it('ZLoginResponseSchema wants the Bearer token type and the 2FA flag', () => {
    const data = {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'Bearer',
      expires_in: 900,
      is_2fa_enabled: true,
    };
    expect(ZLoginResponseSchema.safeParse({ data }).success).toBe(true);
    expect(
      ZLoginResponseSchema.safeParse({ data: { ...data, token_type: 'bearer' } }).success,
    ).toBe(false);
    expect(ZLoginResponseSchema.safeParse(data).success).toBe(false);
  });

  it('ZQrCodeResponseSchema wants an SVG data URL', () => {
    const data = { qr_code: 'data:image/svg+xml;base64,PHN2Zz4=', secret: 'S', otpauth_url: 'o' };
    expect(ZQrCodeResponseSchema.safeParse({ data }).success).toBe(true);
    expect(
      ZQrCodeResponseSchema.safeParse({ data: { ...data, qr_code: 'data:image/png;base64,AA' } })
        .success,
    ).toBe(false);
  });
});
