import { Command, InvalidArgumentError, Option } from 'commander';

import packageJson from '../package.json' with { type: 'json' };

import type { CoursesListOptions } from './commands/courses-list/index.ts';
import type { CourseActionOptions } from './commands/courses/index.ts';
import type { CoursePullOptions, CoursePushOptions } from './commands/courses/pull-push.ts';
import type { InsightsExportOptions, InsightsShowOptions } from './commands/insights/index.ts';
import type {
  ImportStatusOptions,
  LearnersImportOptions,
} from './commands/learners-import/index.ts';
import type { LearnerActionOptions, LearnersListOptions } from './commands/learners/index.ts';
import type { ListsOptions } from './commands/lists/index.ts';
import type { TokensCreateOptions, TokensOptions } from './commands/tokens/index.ts';
import type { LoginOptions } from './commands/login/index.ts';
import type { LogoutOptions } from './commands/logout/index.ts';
import type { WhoamiOptions } from './commands/whoami/index.ts';
import { DEFAULT_API_URL, DEFAULT_TIMEOUT_SECONDS, parseSeconds } from './lib/config.ts';
import { parseLangOption } from './lib/language.ts';
import type { CliIo } from './lib/io.ts';

// Flags and wiring only: each command's module is imported when it runs, so `ccp --help` stays
// fast and a command's dependencies (prompts, spinners) load only where they are used.

export const HELP_FOOTER = `
Environment:
  CCP_API_URL      API base URL; --api-url wins over it; without either, the URL of the last
                   ccp login, else ${DEFAULT_API_URL}
  CCP_TOKEN        a personal API token (ccp tokens create): used instead of a login; nothing is
                   read from or written to the config dir
  CCP_TIMEOUT      seconds one request may take (default ${DEFAULT_TIMEOUT_SECONDS}; 0: no limit); --timeout wins
  CCP_CLASSROOM    the classroom to work in (name or uuid); --classroom wins over it
  CCP_CONFIG_DIR   where credentials.json and imports.json are kept (default $XDG_CONFIG_HOME/ccp,
                   else ~/.config/ccp); a directory that cannot be written is skipped
  CCP_NO_INPUT     never prompt, like --no-input
  CCP_TOTP_SECRET  base32 TOTP secret: ccp login computes the code instead of asking for --otp
  LC_ALL, LANG     the language of messages (it_IT.UTF-8: Italian); --lang wins over them
  NO_COLOR         no colours

Exit codes:
  0    OK
  1    error: network, timeout, server, a refused request, a file ccp refuses for its content
       (CSV, .xlsx, YAML, a course that breaks the rules)
  2    usage: a bad flag, a missing file, an unknown name, input missing where ccp cannot prompt
  3    done, but not all of it: the course has no data yet, or rows of an import failed
  4    authentication or access: not signed in, wrong credentials or code, session expired,
       token refused or without the scope the call needs
  130  interrupted (Ctrl-C)
  143  stopped (SIGTERM)
`;

const IMPORT_EXAMPLES = `
Columns are recognised by their English, Italian or German names (Nome, Vorname, E-mail Address,
Cellulare…); --map names the others. National phone numbers (no +) are read in the country of
their column (--phone-country), else of the row's country column, else --default-country (IT).

Running the same import again after Ctrl-C or a lost connection re-attaches to the job; once it
finished, running it again shows that job's result (--again imports the file again, which changes
nothing that is already there).

Ctrl-C while the server imports: on a terminal ccp asks whether to stop the import on the server;
elsewhere the import goes on unless --cancel-on-interrupt. Later: ccp learners import cancel.

Examples:
  ccp learners import learners.csv --dry-run --errors-out errors.csv
  ccp learners import rubrica.xlsx --list Newcomers --default-country IT --map "Recapito=phone"
  ccp learners import team.csv --map "Mobile (Ireland)=phone" --phone-country "Mobile (Ireland)=IE" -n --json
  cat learners.csv | ccp learners import - --json`;

const EXPORT_EXAMPLES = `
The file is the same bytes on every machine, whatever the language: UTF-8 without BOM, comma
separated, CRLF line ends, cells exactly as stored. --excel gives the spreadsheet variant (BOM,
the language's separator, cells that a spreadsheet would run as formulas quoted with ').

A nightly CI job, with a token that has exports:read:
  CCP_TOKEN=$CCP_TOKEN ccp insights export --course "Sales Basics" --type statistics -o stats.csv
Exit code 3: the course has no data yet (the file has the header line only).`;

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
const yesOption = () => new Option('-y, --yes', 'do it without asking (needed off a terminal)');
const collect = (value: string, previous: string[] = []) => [...previous, value];

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
    .description(
      'CCP from the terminal: import learners, export insights, keep courses as files, make API tokens.',
    )
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(apiUrlOption())
    .option('--no-input', 'never prompt; fail naming the flag to pass (env: CCP_NO_INPUT)')
    .option(
      '--classroom <name|uuid>',
      'the classroom to work in (env: CCP_CLASSROOM; default: the first)',
    )
    .addOption(
      new Option(
        '--lang <lang>',
        'language of messages: en, it or de (env: LC_ALL, LANG)',
      ).argParser(parseLangOption),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        `seconds one request may take (env: CCP_TIMEOUT, default: ${DEFAULT_TIMEOUT_SECONDS}; 0: no limit)`,
      ).argParser(parseSeconds),
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
  const courseAction = (
    name: 'archive' | 'restore' | 'resume' | 'cancel' | 'delete',
    description: string,
  ) => {
    const command = courses
      .command(`${name} <course>`)
      .description(description)
      .addOption(jsonOption())
      .action(async (course: string, _options, cmd: Command) => {
        const { coursesAction } = await import('./commands/courses/index.ts');
        await coursesAction(name, course, cmd.optsWithGlobals<CourseActionOptions>(), io);
      });
    if (name === 'delete' || name === 'cancel') command.addOption(yesOption());
  };
  courses
    .command('clone <course>')
    .description('copy a course (name or uuid) with all its languages and assessments, as a draft')
    .option('--name <name>', 'the copy\'s name (default: "<name> (copy)")')
    .addOption(jsonOption())
    .action(async (course: string, _options, command: Command) => {
      const { coursesClone } = await import('./commands/courses/index.ts');
      await coursesClone(course, command.optsWithGlobals<CourseActionOptions>(), io);
    });
  courseAction('archive', 'archive a course: no more lessons are sent; deleted after 30 days');
  courseAction('restore', 'bring an archived course back (a running one comes back paused)');
  courseAction('resume', 'resume a paused course: its unsent lessons go out from the next slot');
  courseAction('cancel', 'cancel a running or paused course for good');
  courseAction('delete', 'delete a course permanently');
  courses
    .command('pull <course>')
    .description('write a course as a YAML file (stable order, diff-friendly)')
    .option('-o, --output <file>', 'the file to write, or - for stdout (default)')
    .action(async (course: string, _options, command: Command) => {
      const { coursesPull } = await import('./commands/courses/pull-push.ts');
      await coursesPull(course, command.optsWithGlobals<CoursePullOptions>(), io);
    });
  courses
    .command('push <file>')
    .description('check a course file, show what changes field by field, and create or update it')
    .option('-n, --dry-run', 'check and show the changes; send nothing')
    .addOption(jsonOption())
    .action(async (file: string, _options, command: Command) => {
      const { coursesPush } = await import('./commands/courses/pull-push.ts');
      await coursesPush(file, command.optsWithGlobals<CoursePushOptions>(), io);
    });
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

  const learners = program.command('learners').description('work with learners');
  const learnersImport = learners
    .command('import')
    .argument('<file>', '.csv or .xlsx, or - for CSV on stdin')
    .description('import learners from a file through the bulk import, and wait for it')
    .option('--list <name|uuid>', 'add every imported learner to this learners list')
    .option('--default-country <code>', 'country of phone numbers without a + (default IT)')
    .option(
      '--default-channels <list>',
      'channels (slack,ms-teams,whatsapp,webex,google-chat) of rows without any; the file then needs no channels column',
    )
    .option('--default-language <code>', 'language (en, it, de) of rows without one')
    .option(
      '--encoding <name>',
      'text encoding of a CSV (utf-8, utf-16le, utf-16be, windows-1252); guessed from a BOM, else UTF-8 or Windows-1252',
    )
    .option(
      '--map <header=column>',
      'read a header as a column (first_name, last_name, email, phone, channels, locale, country, ignore); repeatable',
      collect,
    )
    .option(
      '--phone-country <header=code>',
      'country of national numbers of one phone column ("Mobile (Ireland)=IE"); it wins over the row\'s country column and --default-country; repeatable',
      collect,
    )
    .option('-n, --dry-run', 'check every row here with the shared rules; send nothing')
    .option('--errors-out <file>', 'write the rows that fail, with their reasons, as CSV')
    .option('--no-wait', 'print the job id and exit; see it with: ccp learners import status <job>')
    .option('--again', 'import a file again even if an import of it already finished')
    .option(
      '--cancel-on-interrupt',
      'off a terminal, Ctrl-C (SIGINT) also stops the import on the server',
    )
    .addOption(jsonOption())
    .addHelpText('after', IMPORT_EXAMPLES)
    .action(async (file: string, _options, command: Command) => {
      const { learnersImport: run } = await import('./commands/learners-import/index.ts');
      await run(file, command.optsWithGlobals<LearnersImportOptions>(), io);
    });
  learnersImport
    .command('status [job]')
    .description(
      're-attach to an import (default: the last one started here): wait, show its counts',
    )
    .option('--errors-out <file>', 'write the error report (CSV)')
    .option('--no-wait', 'show the status now instead of waiting')
    .addOption(jsonOption())
    .action(async (job: string | undefined, _options, command: Command) => {
      const { learnersImportStatus } = await import('./commands/learners-import/index.ts');
      await learnersImportStatus(job, command.optsWithGlobals<ImportStatusOptions>(), io);
    });
  learnersImport
    .command('cancel [job]')
    .description(
      'stop an import on the server (default: the last one started here); rows done stay',
    )
    .addOption(jsonOption())
    .action(async (job: string | undefined, _options, command: Command) => {
      const { learnersImportCancel } = await import('./commands/learners-import/jobs.ts');
      await learnersImportCancel(job, command.optsWithGlobals<ImportStatusOptions>(), io);
    });
  learners
    .command('list')
    .description('list learners, newest first')
    .option('--archived', 'archived learners instead of live ones')
    .option('--list <name|uuid>', 'only the learners of this list')
    .option('-s, --search <text>', 'match first or last name or e-mail')
    .addOption(
      new Option('--limit <n>', 'show at most <n> learners (default: 30)')
        .argParser(positiveInteger)
        .conflicts('all'),
    )
    .option('--all', 'show every learner')
    .addOption(jsonOption())
    .addOption(
      new Option('--jsonl', 'print one JSON object per line as pages arrive (for --all)').conflicts(
        'json',
      ),
    )
    .action(async (_options, command: Command) => {
      const { learnersList } = await import('./commands/learners/index.ts');
      await learnersList(command.optsWithGlobals<LearnersListOptions>(), io);
    });
  learners
    .command('get <learner>')
    .description('show a learner (uuid or e-mail)')
    .addOption(jsonOption())
    .action(async (learner: string, _options, command: Command) => {
      const { learnersGet } = await import('./commands/learners/index.ts');
      await learnersGet(learner, command.optsWithGlobals<LearnerActionOptions>(), io);
    });
  for (const [name, description] of [
    ['archive', 'archive learners (uuid or e-mail); deleted after 30 days'],
    ['restore', 'bring archived learners back'],
    ['delete', 'delete learners permanently'],
  ] as const) {
    const command = learners
      .command(`${name} <learners...>`)
      .description(description)
      .addOption(jsonOption())
      .action(async (wanted: string[], _options, cmd: Command) => {
        const { learnersAction } = await import('./commands/learners/index.ts');
        await learnersAction(name, wanted, cmd.optsWithGlobals<LearnerActionOptions>(), io);
      });
    if (name === 'delete') command.addOption(yesOption());
  }

  const lists = program.command('lists').description('work with learners lists');
  lists
    .command('list')
    .description('list the learners lists')
    .addOption(jsonOption())
    .action(async (_options, command: Command) => {
      const { listsList } = await import('./commands/lists/index.ts');
      await listsList(command.optsWithGlobals<ListsOptions>(), io);
    });
  lists
    .command('create <name>')
    .description('create a learners list')
    .addOption(jsonOption())
    .action(async (name: string, _options, command: Command) => {
      const { listsCreate } = await import('./commands/lists/index.ts');
      await listsCreate(name, command.optsWithGlobals<ListsOptions>(), io);
    });
  lists
    .command('delete <list>')
    .description('delete a learners list (name or uuid); its learners stay')
    .addOption(yesOption())
    .addOption(jsonOption())
    .action(async (list: string, _options, command: Command) => {
      const { listsDelete } = await import('./commands/lists/index.ts');
      await listsDelete(list, command.optsWithGlobals<ListsOptions>(), io);
    });
  lists
    .command('add <list> <learners...>')
    .description('add learners (uuid or e-mail) to a list')
    .addOption(jsonOption())
    .action(async (list: string, wanted: string[], _options, command: Command) => {
      const { listsAdd } = await import('./commands/lists/index.ts');
      await listsAdd(list, wanted, command.optsWithGlobals<ListsOptions>(), io);
    });

  const insights = program.command('insights').description('course figures and exports');
  insights
    .command('show')
    .description("a course's figures (exit 3 while it has no data)")
    .requiredOption('--course <name|uuid>', 'the course')
    .addOption(jsonOption())
    .action(async (_options, command: Command) => {
      const { insightsShow } = await import('./commands/insights/index.ts');
      await insightsShow(command.optsWithGlobals<InsightsShowOptions>(), io);
    });
  insights
    .command('export')
    .description('request an export, wait for it and write the CSV (exit 3: no data yet)')
    .requiredOption('--course <name|uuid>', 'the course')
    .addOption(
      new Option('--type <type>', 'which export')
        .choices(['statistics', 'not-enrolled'])
        .makeOptionMandatory(),
    )
    .option('-o, --output <file>', 'the file to write, or - for stdout (default)')
    .addOption(
      new Option('--delimiter <sep>', 'field separator (default: comma)').choices([
        'comma',
        'semicolon',
        'tab',
      ]),
    )
    .option('--bom', 'start the file with a UTF-8 byte order mark')
    .option('--excel', "for a spreadsheet: BOM, the language's separator, formulas quoted")
    .addHelpText('after', EXPORT_EXAMPLES)
    .action(async (_options, command: Command) => {
      const { insightsExport } = await import('./commands/insights/index.ts');
      await insightsExport(command.optsWithGlobals<InsightsExportOptions>(), io);
    });

  const tokens = program.command('tokens').description('personal API tokens for CI (CCP_TOKEN)');
  tokens
    .command('create')
    .description('create a token (needs a code of your authenticator); printed once on stdout')
    .requiredOption('--name <name>', 'what the token is for')
    .requiredOption(
      '--scope <scope>',
      'courses:read, courses:write, learners:read, learners:write, analytics:read, exports:read; repeatable',
      collect,
    )
    .addOption(
      new Option(
        '--expires <days>',
        'days until it stops working, at most 365 (default: 90)',
      ).argParser(positiveInteger),
    )
    .option('--otp <code>', 'the 6-digit code from your authenticator app (or CCP_TOTP_SECRET)')
    .addOption(jsonOption())
    .action(async (_options, command: Command) => {
      const { tokensCreate } = await import('./commands/tokens/index.ts');
      await tokensCreate(command.optsWithGlobals<TokensCreateOptions>(), io);
    });
  tokens
    .command('list')
    .description('your tokens: scopes, expiry, last use (never the tokens themselves)')
    .addOption(jsonOption())
    .action(async (_options, command: Command) => {
      const { tokensList } = await import('./commands/tokens/index.ts');
      await tokensList(command.optsWithGlobals<TokensOptions>(), io);
    });
  tokens
    .command('revoke <token>')
    .description('revoke a token (name or uuid): it stops working at once')
    .addOption(jsonOption())
    .action(async (token: string, _options, command: Command) => {
      const { tokensRevoke } = await import('./commands/tokens/index.ts');
      await tokensRevoke(token, command.optsWithGlobals<TokensOptions>(), io);
    });

  program
    .command('completion')
    .argument('<shell>', 'bash, zsh or fish')
    .description('print a shell completion script: source <(ccp completion bash)')
    .action(async (shell: string) => {
      const { completion } = await import('./commands/completion/index.ts');
      completion(shell, program, io);
    });

  return program;
};

/** Parses `argv` (node, script, args…) and runs the command; errors propagate to index.ts. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<void> => {
  await createProgram(io).parseAsync(argv);
};
