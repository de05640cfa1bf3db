import {
  ApiError,
  createHttpClient,
  failureIs,
  memoryTokenStore,
  otpStepResult,
  passwordStep,
  signOut,
} from '@ccp/data-provider';
import type { TFirstStep } from '@ccp/data-provider';
import { ZLoginRequestSchema, ZOtpCodeSchema } from '@ccp/schemas';
import type { TUser } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { clientTuning, cliClientEvents, openSession, revokeSession } from '../../lib/client.ts';
import { AuthError, SESSION_EXPIRED, UsageError } from '../../lib/errors.ts';
import { canPrompt, canSpin } from '../../lib/interactive.ts';
import { sayText, specText } from '../../lib/texts.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, readAll } from '../../lib/io.ts';
import { cannotPrompt, createPrompter } from '../../lib/prompt.ts';
import { withSpinner } from '../../lib/spinner.ts';
import { CODE_USED_WAITING, sleep, totpCode, untilNextStep } from '../../lib/otp.ts';

export { totpCode } from '../../lib/otp.ts';

export type LoginOptions = GlobalOptions & {
  email?: string;
  passwordStdin?: boolean;
  otp?: string;
};

/** Interactive attempts at the code before giving up (the API also limits wrong codes). */
const OTP_ATTEMPTS = 3;

export const twoFactorNotSetUp = (email: string): string =>
  `Two-factor authentication is not set up for ${email}. Finish the 2FA setup in the web app, then run: ccp login`;

const emailIssue = (email: string): string | undefined => {
  const parsed = ZLoginRequestSchema.shape.username.safeParse(email);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

const otpIssue = (code: string): string | undefined => {
  const parsed = ZOtpCodeSchema.safeParse(code);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

/** The password from stdin: its trailing newline (from echo or a file) is not part of it. */
export const passwordFromStdin = (text: string): string => text.replace(/\r?\n$/, '');

/**
 * `ccp login`: e-mail and password, then the authenticator code; stores the session for the API
 * URL. Prompts only on a terminal; otherwise every input must come from flags, stdin or env, and a
 * missing one fails (exit 2) before anything is read or sent.
 */
export async function login(options: LoginOptions, io: CliIo): Promise<void> {
  const { apiUrl, lang, store } = openSession(options, io);
  const interactive = canPrompt(io, options);
  const totpSecret = io.env.CCP_TOTP_SECRET || undefined;

  if (!interactive) {
    const missing = [
      options.email ? null : '--email <email>',
      options.passwordStdin ? null : '--password-stdin',
      options.otp || totpSecret ? null : '--otp <code> (or CCP_TOTP_SECRET)',
    ].filter((flag) => flag !== null);
    if (missing.length > 0) {
      throw cannotPrompt(missing.join(', '));
    }
  }
  if (options.email !== undefined) {
    const issue = emailIssue(options.email);
    if (issue) throw new UsageError(`--email: ${sayText(lang, issue)}`);
  }
  // A bad secret must fail before the password is spent on a first step.
  if (totpSecret && options.otp === undefined) totpCode(totpSecret);
  if (options.otp !== undefined && otpIssue(options.otp)) {
    throw new UsageError('--otp: expected the 6-digit code from your authenticator app.');
  }

  const ask = await createPrompter(io, interactive);
  const email =
    options.email ??
    (await ask.text({ message: 'Email', flag: '--email <email>', validate: emailIssue }));
  const password = options.passwordStdin
    ? passwordFromStdin(await readAll(io.stdin))
    : await ask.secret({ message: 'Password', flag: '--password-stdin' });
  if (!password) {
    throw new UsageError(
      options.passwordStdin
        ? 'No password on stdin (--password-stdin).'
        : specText(lang, 'required'),
    );
  }

  // The sign-in runs on its own in-memory session: a failure must not touch the stored one.
  const tuning = clientTuning(options, io);
  const events = cliClientEvents(io, apiUrl, lang, SESSION_EXPIRED, tuning.timeoutMs);
  const client = createHttpClient({
    apiUrl,
    tokens: memoryTokenStore(),
    events,
    language: () => lang,
    ...tuning,
  });
  const spin = canSpin(io, options);

  let firstStep: TFirstStep;
  try {
    firstStep = await withSpinner(io, spin, 'Signing in…', () =>
      passwordStep(client, { username: email.trim(), password }),
    );
  } catch (error) {
    if (error instanceof ApiError && failureIs(error, 'INVALID_CREDENTIALS')) {
      throw new AuthError(specText(lang, 'invalidCredentials'));
    }
    throw error;
  }

  if (!firstStep.is_2fa_enabled) {
    // The CLI does not do the setup (it needs the QR code); end the half-open sign-in.
    await signOut(client, firstStep.access_token);
    throw new AuthError(twoFactorNotSetUp(email.trim()));
  }

  // A code from --otp or CCP_TOTP_SECRET is tried once; a person typing it gets three tries.
  const nextCode = async (): Promise<string> => {
    if (options.otp) return options.otp;
    if (totpSecret) return totpCode(totpSecret);
    return ask.text({
      message: 'Code from your authenticator app',
      flag: '--otp <code>',
      validate: (value) => (otpIssue(value) ? 'Enter the 6-digit code.' : undefined),
    });
  };
  const canRetry = !options.otp && !totpSecret;
  let waitedForStep = false;
  const confirmCode = async (): Promise<TUser> => {
    for (let attempt = 1; ; attempt += 1) {
      const code = (await nextCode()).replace(/\s+/g, '');
      const result = await withSpinner(io, spin, 'Checking the code…', () =>
        otpStepResult(client, firstStep, code),
      );
      if ('user' in result) return result.user;
      // Two logins with one secret within 30 s: the second waits for the next step, once.
      if (result.refused === 'used' && totpSecret && !options.otp && !waitedForStep) {
        waitedForStep = true;
        printErr(io, CODE_USED_WAITING);
        await sleep(untilNextStep());
        attempt -= 1;
        continue;
      }
      if (result.refused === 'used' && !canRetry)
        throw new AuthError(specText(lang, 'codeAlreadyUsed'));
      if (!canRetry || attempt >= OTP_ATTEMPTS) throw new AuthError(specText(lang, 'otpInvalid'));
      printErr(io, specText(lang, result.refused === 'used' ? 'codeAlreadyUsed' : 'otpInvalid'));
    }
  };
  const user = await confirmCode();

  const tokens = client.tokens.get();
  if (!tokens) throw new AuthError(specText(lang, 'otpInvalid'));
  const previous = store.get();
  store.set(tokens);
  // The next commands talk to this URL without --api-url (it goes with the credentials).
  if ('remember' in store) store.remember();
  // Replacing a session: end the old one on the server too (quietly; it may be long dead).
  if (previous && previous.refresh_token !== tokens.refresh_token) {
    await revokeSession(apiUrl, previous, {}, lang, tuning);
  }
  printErr(io, `Signed in as ${user.email} (${user.company.name})`);
}
