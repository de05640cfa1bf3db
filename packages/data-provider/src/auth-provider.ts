import { MESSAGES, RECOVERY_CODES_LOW } from '@ccp/schemas';
import type { TUser } from '@ccp/schemas';
import type {
  AuthActionResponse,
  AuthProvider,
  CheckResponse,
  OnErrorResponse,
} from '@refinedev/core';

import { ApiError } from './api-error.ts';
import {
  acceptInvitation,
  currentUser,
  forgotPassword,
  otpStep,
  passwordStep,
  previewInvitation,
  recoveryCodeStep,
  resetPassword,
  signOut,
  twoFactorQrCode,
  verifyTwoFactorSetup,
} from './auth-api.ts';
import type { TFirstStep, TInvitationPreview, TQrCode } from './auth-api.ts';
import type { HttpClient } from './http-client.ts';
import { sessionFor } from './session.ts';
import type { Session } from './session.ts';

/** Where the spec's route guards send the user. */
export type AuthRoutes = {
  login: string;
  /** First-time two-factor setup. */
  twoFactorSetup: string;
  afterLogin: string;
};

export const DEFAULT_AUTH_ROUTES: AuthRoutes = {
  login: '/login',
  twoFactorSetup: '/2fa',
  afterLogin: '/dashboard',
};

/** A first step waiting for the 2FA setup, as kept across reloads (until `expires_at`, epoch ms). */
export type TStoredFirstStep = TFirstStep & { expires_at: number };

/**
 * Where a first step waiting for the 2FA setup survives a reload: session storage in the web app
 * (gone with the tab), nothing in the CLI. Never kept longer than the first-step token lives.
 */
export type PendingStepStore = {
  get: () => TStoredFirstStep | null;
  set: (step: TStoredFirstStep | null) => void;
};

export type AuthProviderOptions = {
  /** Shared with the data provider of the same client; `sessionFor(client)` by default. */
  session?: Session;
  routes?: Partial<AuthRoutes>;
  pendingStore?: PendingStepStore;
  now?: () => number;
};

/** The first-step tokens live 15 minutes unless the API says otherwise (CCP_ACCESS_TOKEN_TTL). */
const FIRST_STEP_DEFAULT_TTL_SECONDS = 900;

/** After the password step: a code is due (`otp`) or 2FA must be set up first (`setup`). */
export type TPendingStep = 'otp' | 'setup';

export type PasswordStepResult =
  | { success: true; next: TPendingStep; redirectTo?: string }
  | { success: false; error: ApiError | Error };

export type LoginParams = { code: string; email?: string; password?: string };

export type CcpAuthProvider = Required<
  Pick<AuthProvider, 'login' | 'logout' | 'check' | 'onError' | 'getIdentity'>
> & {
  /**
   * Step one, called by the login page itself (not through `useLogin`, whose failure
   * notification and `?to=` redirect do not fit a half-done login): e-mail and password. The
   * first step's tokens stay in this provider's memory, never in the token store.
   */
  passwordStep: (credentials: { email: string; password: string }) => Promise<PasswordStepResult>;
  /** What the login page shows: the code step, the 2FA setup, or (null) the credentials. */
  pendingStep: () => TPendingStep | null;
  /** First-time setup, with the first step's tokens: the QR code and secret. */
  twoFactorQrCode: () => Promise<TQrCode>;
  /** First-time setup: two consecutive codes; signs in on success. */
  verifyTwoFactorSetup: (codes: [string, string]) => Promise<AuthActionResponse>;
  /** Step two with a recovery code; on success also how many codes remain (issue 17). */
  recoveryCodeLogin: (
    recoveryCode: string,
  ) => Promise<AuthActionResponse & { remaining?: number; low?: boolean }>;
  /** Password reset by e-mail: the request (same answer for any address) and the new password. */
  forgotPassword: (params: { email: string }) => Promise<AuthActionResponse>;
  updatePassword: (params: { token: string; password: string }) => Promise<AuthActionResponse>;
  previewInvitation: (token: string) => Promise<TInvitationPreview>;
  /** Accepts an invitation and continues as after a password step without 2FA (the setup). */
  acceptInvitation: (payload: {
    token: string;
    first_name: string;
    last_name: string;
    password: string;
  }) => Promise<PasswordStepResult>;
};

/** A sign-in failure the provider decides itself; `code` is what hosts match on (not the text). */
export type TLoginError = Error & { code?: string };

const loginError = (message: string, code?: 'INVALID_CODE'): TLoginError => {
  const error: TLoginError = new Error(message);
  // Refine shows `name` as the notification title and `message` as its text.
  error.name = 'Login Error';
  if (code) error.code = code;
  return error;
};

/**
 * The Refine auth provider for the spec's two-step login (refine-v5 notes §2.3, the supabase
 * example's design): the login page calls `passwordStep`, then `useLogin().mutate({ code })`.
 * `login({ email, password, code })` runs both steps at once (the CLI, a three-field form).
 *
 * Guards (spec §2): `check` answers authenticated only with stored tokens; otherwise it sends the
 * user to the 2FA setup while a password step without 2FA is pending, else to the login page.
 * The host keeps its 2FA page outside `<Authenticated>` and shows it while
 * `pendingStep() === 'setup'`; /logout stays reachable because it needs no guard.
 */
export const authProvider = (
  client: HttpClient,
  options: AuthProviderOptions = {},
): CcpAuthProvider => {
  const session = options.session ?? sessionFor(client);
  const routes = { ...DEFAULT_AUTH_ROUTES, ...options.routes };
  const now = options.now ?? Date.now;
  const store = options.pendingStore;

  // A half-done first-time setup (no 2FA yet) is kept, so a reload of /2fa or any page still
  // finds the setup (spec §2: signed in without 2FA goes to /2fa). A code step is not kept: the
  // login page starts over.
  const restore = (): (TFirstStep & { user?: TUser }) | null => {
    const stored = store?.get() ?? null;
    if (!stored) return null;
    if (stored.is_2fa_enabled || stored.expires_at <= now()) {
      store?.set(null);
      return null;
    }
    const { expires_at: _expiresAt, ...first } = stored;
    return first;
  };
  let pending: (TFirstStep & { user?: TUser }) | null = restore();
  const setPending = (next: TFirstStep | null) => {
    pending = next;
    if (!store) return;
    if (!next || next.is_2fa_enabled) {
      store.set(null);
      return;
    }
    const ttl = next.expires_in ?? FIRST_STEP_DEFAULT_TTL_SECONDS;
    store.set({
      access_token: next.access_token,
      refresh_token: next.refresh_token,
      is_2fa_enabled: false,
      expires_in: ttl,
      expires_at: now() + ttl * 1000,
    });
  };

  const signedIn = (user: TUser): AuthActionResponse => {
    setPending(null);
    // Whatever the previous user left (company, classroom, lists) is not this user's.
    session.clear();
    session.setIdentity(user);
    return { success: true, redirectTo: routes.afterLogin };
  };

  const runPasswordStep = async (credentials: {
    email: string;
    password: string;
  }): Promise<PasswordStepResult> => {
    setPending(null);
    try {
      const first = await passwordStep(client, {
        username: credentials.email,
        password: credentials.password,
      });
      setPending(first);
      return first.is_2fa_enabled
        ? { success: true, next: 'otp' }
        : { success: true, next: 'setup', redirectTo: routes.twoFactorSetup };
    } catch (error) {
      if (error instanceof Error) return { success: false, error };
      throw error;
    }
  };

  const codeStep = async (code: string): Promise<AuthActionResponse> => {
    if (!pending) {
      return {
        success: false,
        redirectTo: routes.login,
        error: loginError('Sign in with your e-mail and password first.'),
      };
    }
    if (!pending.is_2fa_enabled) {
      return {
        success: false,
        redirectTo: routes.twoFactorSetup,
        error: loginError(MESSAGES.twoFactorNotEnabled),
      };
    }
    try {
      const user = await otpStep(client, pending, code);
      // A wrong code keeps the first step: the API spends its refresh token only on a right one.
      if (user === false) {
        return { success: false, error: loginError(MESSAGES.otpInvalid, 'INVALID_CODE') };
      }
      return signedIn(user);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setPending(null);
      if (error instanceof Error) return { success: false, error };
      throw error;
    }
  };

  return {
    passwordStep: runPasswordStep,

    pendingStep: () => (pending ? (pending.is_2fa_enabled ? 'otp' : 'setup') : null),

    login: async (params: Partial<LoginParams> = {}) => {
      const { email, password, code } = params;
      if (typeof code !== 'string' || code.trim() === '') {
        return {
          success: false,
          error: loginError(
            'login() needs { code }: call passwordStep({ email, password }) first, or pass all three.',
          ),
        };
      }
      if (typeof email === 'string' && typeof password === 'string') {
        const first = await runPasswordStep({ email, password });
        if (!first.success) return first;
      }
      return codeStep(code);
    },

    recoveryCodeLogin: async (recoveryCode) => {
      if (!pending) {
        return {
          success: false,
          redirectTo: routes.login,
          error: loginError('Sign in with your e-mail and password first.'),
        };
      }
      try {
        const result = await recoveryCodeStep(client, pending, recoveryCode);
        if (result === false) {
          return {
            success: false,
            error: loginError(MESSAGES.recoveryCodeInvalid, 'INVALID_CODE'),
          };
        }
        return {
          ...signedIn(result.user),
          remaining: result.remaining,
          low: result.remaining <= RECOVERY_CODES_LOW,
        };
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) setPending(null);
        if (error instanceof Error) return { success: false, error };
        throw error;
      }
    },

    forgotPassword: async ({ email }) => {
      try {
        await forgotPassword(client, email);
        return { success: true };
      } catch (error) {
        if (error instanceof Error) return { success: false, error };
        throw error;
      }
    },

    updatePassword: async (params) => {
      try {
        await resetPassword(client, params);
        return { success: true, redirectTo: routes.login };
      } catch (error) {
        if (error instanceof Error) return { success: false, error };
        throw error;
      }
    },

    previewInvitation: (token) => previewInvitation(client, token),

    acceptInvitation: async (payload) => {
      setPending(null);
      try {
        const first = await acceptInvitation(client, payload);
        setPending(first);
        return { success: true, next: 'setup', redirectTo: routes.twoFactorSetup };
      } catch (error) {
        if (error instanceof Error) return { success: false, error };
        throw error;
      }
    },

    twoFactorQrCode: async () => {
      if (!pending) throw new Error('Sign in with your e-mail and password first.');
      return twoFactorQrCode(client, pending.access_token);
    },

    verifyTwoFactorSetup: async (codes) => {
      if (!pending) {
        return {
          success: false,
          redirectTo: routes.login,
          error: loginError('Sign in with your e-mail and password first.'),
        };
      }
      try {
        const user = await verifyTwoFactorSetup(client, codes, pending.access_token);
        if (user === false) {
          return { success: false, error: loginError(MESSAGES.otpWrongSetup, 'INVALID_CODE') };
        }
        return signedIn(user);
      } catch (error) {
        if (error instanceof Error) return { success: false, error };
        throw error;
      }
    },

    logout: async () => {
      // A half-done login ends on the server too, with its first-step token.
      const bearer = pending && !client.tokens.get() ? pending.access_token : undefined;
      setPending(null);
      await signOut(client, bearer);
      session.clear();
      return { success: true, redirectTo: routes.login };
    },

    // Cheap: local state only, no request (Refine runs it on every guarded render).
    check: async (): Promise<CheckResponse> => {
      if (client.tokens.get()) {
        const user = session.knownIdentity();
        if (user && !user.is_2fa_enabled) {
          return { authenticated: false, redirectTo: routes.twoFactorSetup };
        }
        return { authenticated: true };
      }
      // Tokens gone (a failed refresh, another tab's logout): nothing cached may outlive them.
      session.clear();
      if (pending && !pending.is_2fa_enabled) {
        return { authenticated: false, redirectTo: routes.twoFactorSetup };
      }
      return { authenticated: false, redirectTo: routes.login };
    },

    getIdentity: async (): Promise<TUser | null> => {
      if (client.tokens.get()) return session.identity();
      if (pending) {
        pending.user ??= await currentUser(client, pending.access_token);
        return pending.user;
      }
      return null;
    },

    // Only a failed shared refresh logs out: the client has cleared the tokens already.
    onError: async (error: unknown): Promise<OnErrorResponse> =>
      (error as Partial<ApiError> | null)?.reaction?.type === 'logout'
        ? { logout: true, redirectTo: routes.login }
        : {},
  };
};
