import { ApiError } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import { AuthError, CliError, EXIT, reportError, UsageError } from './errors.ts';
import { createTestIo } from './test-io.ts';

const report = (error: unknown) => {
  const { io, stderr, stdout } = createTestIo();
  const code = reportError(error, io);
  expect(stdout()).toBe('');
  return { code, stderr: stderr() };
};

describe('reportError', () => {
  it('maps commander: help/version 0, any usage error 2 (commander printed it already)', () => {
    expect(report(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({
      code: 0,
      stderr: '',
    });
    expect(report(new CommanderError(1, 'commander.unknownOption', 'error: x'))).toEqual({
      code: 2,
      stderr: '',
    });
  });

  it('prints a CliError and answers its code', () => {
    expect(report(new UsageError('Missing --email'))).toEqual({
      code: 2,
      stderr: 'Missing --email\n',
    });
    expect(report(new AuthError('Invalid OTP'))).toEqual({ code: 4, stderr: 'Invalid OTP\n' });
    expect(report(new CliError('Boom'))).toEqual({ code: 1, stderr: 'Boom\n' });
  });

  it('does not repeat what the client events already printed', () => {
    const shown = new ApiError({ status: 404, code: 'NOT_FOUND', message: 'Not found.' });
    shown.reaction = { type: 'toast', message: 'Not found.' };
    expect(report(shown)).toEqual({ code: 1, stderr: '' });
  });

  it('exits 4 when the client logged the user out (a refresh that failed)', () => {
    const expired = new ApiError({ status: 401, code: 'INVALID_REFRESH_TOKEN', message: 'x' });
    expired.reaction = { type: 'logout' };
    expect(report(expired)).toEqual({ code: EXIT.auth, stderr: '' });
  });

  it('prints a failure the client kept silent', () => {
    const silent = new ApiError({
      status: 400,
      code: 'INVALID_CREDENTIALS',
      message: MESSAGES.invalidCredentials,
    });
    silent.reaction = { type: 'silent' };
    expect(report(silent)).toEqual({ code: 1, stderr: `${MESSAGES.invalidCredentials}\n` });
  });

  it('answers 130 when a prompt was cancelled with Ctrl-C', () => {
    const cancelled = Object.assign(new Error('User force closed the prompt'), {
      name: 'ExitPromptError',
    });
    expect(report(cancelled)).toEqual({ code: 130, stderr: 'Cancelled.\n' });
  });

  it('reports anything else as an unknown error, exit 1', () => {
    expect(report(new TypeError('oops'))).toEqual({
      code: 1,
      stderr: `${MESSAGES.unknownError}: oops\n`,
    });
  });
});
