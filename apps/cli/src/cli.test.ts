import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import packageJson from '../package.json' with { type: 'json' };

import { createProgram } from './cli.ts';
import { createTestIo, runInProcess } from './lib/test-io.ts';

describe('ccp (program)', () => {
  it('documents the exit codes and the environment in --help, and exits 0', async () => {
    const result = await runInProcess(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: ccp [options] [command]');
    const codes = /Exit codes[^\n]*:\n((?: {2}.*\n)+)/.exec(result.stdout)?.[1] ?? '';
    expect(codes.match(/^ {2}\d+/gm)?.map(Number)).toEqual([0, 1, 2, 3, 4, 130, 143]);
    expect(codes).toMatch(/ {2}4 +authentication or access: .*\n.*without the scope/);
    expect(result.stdout).toContain('CCP_TIMEOUT');
    expect(result.stdout).toContain('--timeout <seconds>');
    expect(result.stdout).toContain('CCP_API_URL');
    expect(result.stdout).toContain('CCP_TOTP_SECRET');
    expect(result.stdout).toContain('CCP_TOKEN');
    expect(result.stdout).toContain('CCP_CLASSROOM');
    expect(result.stderr).toBe('');
  });

  it('prints the version with --version', async () => {
    const result = await runInProcess(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('shows global options in a command’s help', async () => {
    const result = await runInProcess(['login', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--password-stdin');
    expect(result.stdout).toContain('--api-url <url>');
  });

  it('throws a CommanderError (exitOverride) instead of exiting on a usage error', async () => {
    const { io } = createTestIo();
    const program = createProgram(io);
    await expect(program.parseAsync(['node', 'ccp', '--nope'])).rejects.toBeInstanceOf(
      CommanderError,
    );
  });

  it.each([
    [['--nope'], "unknown option '--nope'"],
    [['lgoin'], "unknown command 'lgoin'"],
    [['courses'], 'Usage: ccp courses'],
    [['login', '--email'], "option '--email <email>' argument missing"],
  ])('exits 2 on a usage error: ccp %j', async (args, message) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('suggests the closest command', async () => {
    const result = await runInProcess(['whoam']);
    expect(result.stderr).toContain('(Did you mean whoami?)');
  });

  it('exits 2 on an --api-url that is not an http(s) URL', async () => {
    const result = await runInProcess(['whoami', '--api-url', 'ftp://example.com'], {
      env: { CCP_CONFIG_DIR: '/nonexistent' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid --api-url "ftp://example.com"');
  });
});
