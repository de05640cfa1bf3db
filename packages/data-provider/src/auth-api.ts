import type { TUser } from '@ccp/schemas';

import { ApiError } from './api-error.ts';
import type { HttpClient } from './http-client.ts';
import { failureIs } from './reactions.ts';
import type { TTokens } from './token-store.ts';

// The sign-in calls of spec §7, shared by the Refine auth provider and the CLI.

/** Tokens of the first login step: they open only the 2FA calls, so they are never stored. */
export type TFirstStep = {
  access_token: string;
  refresh_token: string;
  is_2fa_enabled: boolean;
  /** Seconds the first-step tokens live. */
  expires_in?: number;
};

type TokenData = { access_token: string; refresh_token: string; expires_in?: number };

const toTokens = (data: TokenData): TTokens => ({
  access_token: data.access_token,
  refresh_token: data.refresh_token,
  ...(data.expires_in ? { expires_at: Date.now() + data.expires_in * 1000 } : {}),
});

const isInvalidCode = (error: unknown): boolean =>
  error instanceof ApiError && failureIs(error, 'INVALID_CODE');

/** At sign-in a code that is not six digits is refused by validation, on `code` alone. */
const isInvalidOrMalformedCode = (error: unknown): boolean =>
  isInvalidCode(error) ||
  (error instanceof ApiError &&
    error.code === 'VALIDATION_FAILED' &&
    Object.keys(error.errors ?? {}).join() === 'code');

/**
 * Step one: e-mail and password. Wrong credentials reject with the API's 400 (shown by the login
 * page, not by a toast: the client handles that text silently).
 */
export const passwordStep = async (
  client: HttpClient,
  credentials: { username: string; password: string },
): Promise<TFirstStep> => {
  const { data } = await client.post<{ data: TFirstStep }>(
    '/api/v1/users/oauth/token',
    { ...credentials, platform: client.platform },
    { auth: false },
  );
  return data;
};

const isSpentCode = (error: unknown): boolean =>
  error instanceof ApiError && failureIs(error, 'CODE_ALREADY_USED');

/** Why a code was refused: wrong, or right but its 30-second step already used. */
export type TOtpRefusal = 'invalid' | 'used';

/**
 * Step two with the reason of a refusal: `{ user }` (the full tokens are stored), or `{ refused:
 * 'used' }` when the code was right but its step was already spent by another sign-in (a client
 * holding the secret can wait for the next step), `{ refused: 'invalid' }` for a wrong code.
 */
export const otpStepResult = async (
  client: HttpClient,
  firstStep: Pick<TFirstStep, 'access_token' | 'refresh_token'>,
  code: string,
): Promise<{ user: TUser } | { refused: TOtpRefusal }> => {
  const refused = (error: unknown) => isInvalidOrMalformedCode(error) || isSpentCode(error);
  try {
    const { data } = await client.post<{ data: TokenData & { user: TUser } }>(
      '/api/v1/users/oauth/2fa-token',
      { refresh_token: firstStep.refresh_token, platform: client.platform, code },
      { bearer: firstStep.access_token, quiet: refused },
    );
    client.tokens.set(toTokens(data));
    return { user: data.user };
  } catch (error) {
    if (isSpentCode(error)) return { refused: 'used' };
    if (isInvalidOrMalformedCode(error)) return { refused: 'invalid' };
    throw error;
  }
};

/**
 * Step two: the TOTP code, with the first step's tokens. Stores the full tokens and answers the
 * user; answers `false` for a wrong or already used code (spec §7: "Failed 2FA login returns
 * false").
 */
export const otpStep = async (
  client: HttpClient,
  firstStep: Pick<TFirstStep, 'access_token' | 'refresh_token'>,
  code: string,
): Promise<TUser | false> => {
  const result = await otpStepResult(client, firstStep, code);
  return 'user' in result ? result.user : false;
};

export type TQrCode = { qr_code: string; secret: string; otpauth_url: string };

/** First-time setup: a QR code (and the secret for manual entry) for the authenticator app. */
export const twoFactorQrCode = async (client: HttpClient, bearer?: string): Promise<TQrCode> => {
  const { data } = await client.get<{ data: TQrCode }>('/api/v1/users/2fa-qrcode', {
    ...(bearer ? { bearer } : {}),
  });
  return data;
};

/**
 * First-time setup: two consecutive codes. On success the API answers full tokens, which are
 * stored; a wrong pair answers `false` ("Invalid code." is a plain failure), other errors throw.
 */
export const verifyTwoFactorSetup = async (
  client: HttpClient,
  codes: [string, string],
  bearer?: string,
): Promise<TUser | false> => {
  try {
    const { data } = await client.post<{ data: TokenData & { status: string; user: TUser } }>(
      '/api/v1/users/2fa-verify/',
      { code: codes },
      { ...(bearer ? { bearer } : {}), quiet: isInvalidCode },
    );
    if (data.status !== 'confirmed') return false;
    client.tokens.set(toTokens(data));
    return data.user;
  } catch (error) {
    if (isInvalidCode(error)) return false;
    throw error;
  }
};

/** The signed-in user (a first-step bearer may be passed during 2FA setup). */
export const currentUser = async (client: HttpClient, bearer?: string): Promise<TUser> => {
  const { data } = await client.get<{ data: TUser }>('/api/v1/users/me', {
    ...(bearer ? { bearer } : {}),
  });
  return data;
};

/** Ends the session on the server (a 401 there is ignored) and forgets the tokens. */
export const signOut = async (client: HttpClient, bearer?: string): Promise<void> => {
  try {
    if (bearer || client.tokens.get()) {
      await client.post('/api/v1/users/oauth/logout', undefined, { ...(bearer ? { bearer } : {}) });
    }
  } catch (error) {
    // Signing out must always work locally, even offline or with a dead session.
    if (!(error instanceof ApiError)) throw error;
  } finally {
    client.tokens.clear();
  }
};

/**
 * Step two with one of the user's recovery codes instead of a TOTP code (issue 17): the user and
 * how many codes remain, or false for a wrong or used one.
 */
export const recoveryCodeStep = async (
  client: HttpClient,
  firstStep: Pick<TFirstStep, 'access_token' | 'refresh_token'>,
  recoveryCode: string,
): Promise<{ user: TUser; remaining: number } | false> => {
  try {
    const { data } = await client.post<{
      data: TokenData & { user: TUser; recovery_codes_remaining?: number };
    }>(
      '/api/v1/users/oauth/2fa-token',
      {
        refresh_token: firstStep.refresh_token,
        platform: client.platform,
        recovery_code: recoveryCode,
      },
      { bearer: firstStep.access_token, quiet: isInvalidOrMalformedCode },
    );
    client.tokens.set(toTokens(data));
    return { user: data.user, remaining: data.recovery_codes_remaining ?? 0 };
  } catch (error) {
    if (isInvalidOrMalformedCode(error)) return false;
    throw error;
  }
};

/** The public account pages show every failure themselves (under a field or above the form). */
const PAGE_SHOWS_FAILURES = () => true;

/** Asks for a password-reset e-mail; the answer is the same whether the account exists or not. */
export const forgotPassword = async (client: HttpClient, email: string): Promise<void> => {
  await client.post(
    '/api/v1/users/password/forgot',
    { email },
    { auth: false, quiet: PAGE_SHOWS_FAILURES },
  );
};

/** Sets a new password with the token of the reset link. */
export const resetPassword = async (
  client: HttpClient,
  payload: { token: string; password: string },
): Promise<void> => {
  await client.post('/api/v1/users/password/reset', payload, {
    auth: false,
    quiet: PAGE_SHOWS_FAILURES,
  });
};

export type TInvitationPreview = { email: string; company_name: string; role: 'admin' | 'creator' };

export const previewInvitation = async (
  client: HttpClient,
  token: string,
): Promise<TInvitationPreview> => {
  const { data } = await client.post<{ data: TInvitationPreview }>(
    '/api/v1/invitations/preview',
    { token },
    { auth: false, quiet: PAGE_SHOWS_FAILURES },
  );
  return data;
};

/** Creates the invitee's account: answers first-step tokens, as a password sign-in does. */
export const acceptInvitation = async (
  client: HttpClient,
  payload: { token: string; first_name: string; last_name: string; password: string },
): Promise<TFirstStep> => {
  const { data } = await client.post<{ data: TFirstStep }>('/api/v1/invitations/accept', payload, {
    auth: false,
    quiet: PAGE_SHOWS_FAILURES,
  });
  return data;
};
