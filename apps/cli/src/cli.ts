import { Command, InvalidArgumentError, Option } from 'commander';

import packageJson from '../package.json' with { type: 'json' };

import type { CoursesListOptions } from './commands/courses-list/index.ts';
import type { LoginOptions } from './commands/login/index.ts';
import type { LogoutOptions } from './commands/logout/index.ts';
import type { WhoamiOptions } from './commands/whoami/index.ts';
import { DEFAULT_API_URL } from './lib/config.ts';
import { parseLangOption } from './lib/language.ts';
import type { CliIo } from './lib/io.ts';

// Flags and wiring only: each command's module is imported when it runs, so `ccp --help` stays
// fast and a command's dependencies (prompts, spinners) load only where they are used.

export const HELP_FOOTER = `
Environment:
  CCP_API_URL      API base URL (default ${DEFAULT_API_URL}); --api-url wins over it
  CCP_CONFIG_DIR   where credentials.json is kept (default $XDG_CONFIG_HOME/ccp, else ~/.config/ccp)
  CCP_NO_INPUT     never prompt, like --no-input
  CCP_TOTP_SECRET  base32 TOTP secret: ccp login computes the code instead of asking for --otp
  LC_ALL, LANG     the language of messages (it_IT.UTF-8: Italian); --lang wins over them
  NO_COLOR         no colours

Exit codes:
  0    OK
  1    error (network, server, refused request)
  2    usage: a bad flag, or input missing where ccp cannot prompt
  4    authentication: not signed in, wrong credentials or code, session expired
  130  cancelled (Ctrl-C)
`;

const LOGIN_EXAMPLES = `
Without a terminal (CI), every input comes from flags, stdin or the environment:
  printf '%s' "$CCP_PASSWORD" | ccp login --email you@example.com --password-stdin --otp 123456
  CCP_TOTP_SECRET=… ccp login --email you@example.com --password-stdin < password.txt

Two-factor authentication must already be set up (in the web app).`;

const positiveInteger = (value: string): number => {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError('Expected a whole number of at least 1.');
  }
  return number;
};

const apiUrlOption = () =>
  new Option('--api-url <url>', `API base URL (env: CCP_API_URL, default: ${DEFAULT_API_URL})`);
const jsonOption = () => new Option('--json', 'print JSON to stdout (for scripts)');

/** The `ccp` program. Commander's usage errors throw (exitOverride) instead of exiting. */
export const createProgram = (io: CliIo): Command => {
  const program = new Command('ccp');
  // Set before adding subcommands: they inherit both.
  program.exitOverride().configureOutput({
    writeOut: (text) => void io.stdout.write(text),
    writeErr: (text) => void io.stderr.write(text),
  });
  program.configureHelp({ showGlobalOptions: true });
  program
    .description('CCP from the terminal: sign in and list your courses.')
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(apiUrlOption())
    .option('--no-input', 'never prompt; fail naming the flag to pass (env: CCP_NO_INPUT)')
    .addOption(
      new Option(
        '--lang <lang>',
        'language of messages: en, it or de (env: LC_ALL, LANG)',
      ).argParser(parseLangOption),
    )
    .showSuggestionAfterError()
    .addHelpText('after', HELP_FOOTER)
    .helpCommand('help [command]', 'show help for a command');

  program
    .command('login')
    .description('sign in with e-mail, password and your authenticator code')
    .option('--email <email>', 'the account e-mail')
    .option('--password-stdin', 'read the password from stdin')
    .option('--otp <code>', 'the 6-digit code from your authenticator app (or CCP_TOTP_SECRET)')
    .addHelpText('after', LOGIN_EXAMPLES)
    .action(async (_options, command: Command) => {
      const { login } = await import('./commands/login/index.ts');
      await login(command.optsWithGlobals<LoginOptions>(), io);
    });

  program
    .command('logout')
    .description('end the session and forget the stored tokens')
    .action(async (_options, command: Command) => {
      const { logout } = await import('./commands/logout/index.ts');
      await logout(command.optsWithGlobals<LogoutOptions>(), io);
    });

  program
    .command('whoami')
    .description('show the signed-in user')
    .addOption(jsonOption())
    .action(async (_options, command: Command) => {
      const { whoami } = await import('./commands/whoami/index.ts');
      await whoami(command.optsWithGlobals<WhoamiOptions>(), io);
    });

  const courses = program.command('courses').description('work with courses');
  courses
    .command('list')
    .description("list the current classroom's courses, newest first")
    .option('--archived', 'list archived courses instead of live ones')
    .addOption(jsonOption())
    .addOption(
      new Option('--limit <n>', 'show at most <n> courses (default: 30)')
        .argParser(positiveInteger)
        .conflicts('all'),
    )
    .option('--all', 'show every course')
    .action(async (_options, command: Command) => {
      const { coursesList } = await import('./commands/courses-list/index.ts');
      await coursesList(command.optsWithGlobals<CoursesListOptions>(), io);
    });

  return program;
};

/** Parses `argv` (node, script, args…) and runs the command; errors propagate to index.ts. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<void> => {
  await createProgram(io).parseAsync(argv);
};
