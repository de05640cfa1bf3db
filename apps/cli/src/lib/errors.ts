import { ApiError } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import { CommanderError } from 'commander';

import type { CliIo } from './io.ts';
import { printErr } from './io.ts';

/** The exit codes `ccp --help` documents (gh's set). */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  /** Done, but not everything: the course has no data yet, or rows of an import failed. */
  incomplete: 3,
  /** Not signed in, refused credentials or token, or a token without the scope a call needs (403). */
  auth: 4,
  cancelled: 130,
  /** Stopped by SIGTERM (128 + 15, as a shell reports a process the signal ended). */
  terminated: 143,
} as const;

export type TExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Names the API URL it checked: a login to another URL is no session for this one. */
export const notSignedIn = (apiUrl: string): string => `Not signed in to ${apiUrl}. Run: ccp login`;
export const SESSION_EXPIRED = 'Session expired. Run: ccp login';
export const TOKEN_REFUSED =
  'CCP_TOKEN was refused: it expired, was revoked, or is not a CCP API token. Create one with: ccp tokens create';

/** An error a command throws on purpose: its message is for the user, its code for the shell. */
export class CliError extends Error {
  readonly exitCode: TExitCode;

  constructor(message: string, exitCode: TExitCode = EXIT.error) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** Bad or missing input: the message names the flag to pass. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}

/** Not signed in, wrong credentials or code, or a session that cannot be refreshed. */
export class AuthError extends CliError {
  constructor(message: string) {
    super(message, EXIT.auth);
    this.name = 'AuthError';
  }
}

// @inquirer/prompts' Ctrl-C and abort errors, matched by name to avoid importing the prompts.
const CANCEL_ERRORS = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/**
 * Prints what the user has not been told yet and answers the exit code. Commander prints its own
 * usage errors; the HTTP client's events already printed any failure it reacted to.
 */
export const reportError = (error: unknown, io: CliIo): TExitCode => {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof CliError) {
    if (error.message) printErr(io, error.message);
    return error.exitCode;
  }
  if (error instanceof ApiError) {
    const reaction = error.reaction?.type;
    if (reaction === 'logout') return EXIT.auth;
    if (reaction === undefined || reaction === 'silent') {
      printErr(io, error.message || MESSAGES.unknownError);
    }
    return error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.error;
  }
  if (error instanceof Error && CANCEL_ERRORS.has(error.name)) {
    printErr(io, 'Cancelled.');
    return EXIT.cancelled;
  }
  const detail = error instanceof Error ? error.message : String(error);
  printErr(io, `${MESSAGES.unknownError}: ${detail}`);
  if (io.env.CCP_DEBUG && error instanceof Error && error.stack) printErr(io, error.stack);
  return EXIT.error;
};
