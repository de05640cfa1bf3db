import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { JobRunner } from '@ccp/api';
import { MESSAGES } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { DEMO_PASSWORD, builtApi, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

const { startJobRunner } = builtApi;

// What trainers and CI jobs do with the real, bundled `ccp` (apps/cli/dist, built before these
// tests) against the real API on a temporary database: imports, exports, course files, tokens.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CCP = path.join(ROOT, 'apps/cli/bin/ccp.js');

type Run = { code: number | null; stdout: string; stderr: string; stdoutBytes: Buffer };
type RunOptions = {
  input?: string;
  env?: Record<string, string>;
  onStart?: (child: ChildProcess) => void;
};

let api: RunningApi;
let runner: JobRunner | null = null;
let configDir: string;
let workDir: string;

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      key.startsWith('CCP_') ||
      key.startsWith('LC_') ||
      ['CI', 'NO_COLOR', 'LANG'].includes(key)
    ) {
      delete env[key];
    }
  }
  return env;
};

const ccp = (args: string[], options: RunOptions = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CCP, ...args], {
      cwd: workDir,
      env: {
        ...cleanEnv(),
        CI: 'true',
        CCP_CONFIG_DIR: configDir,
        CCP_API_URL: api.url,
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, stdout: stdoutBytes.toString('utf8'), stderr, stdoutBytes });
    });
    options.onStart?.(child);
    // Left open unless a test writes: a prompt would hang on it, so none may be shown.
    if (options.input !== undefined) child.stdin.end(options.input);
  });

const inject = async <T = unknown>(method: 'GET' | 'POST', url: string, token: string) => {
  const response = await api.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.statusCode,
    data: (response.json<{ data: T }>() ?? {}).data,
    raw: response,
  };
};

const session = () =>
  (
    JSON.parse(readFileSync(path.join(configDir, 'credentials.json'), 'utf8')) as {
      sessions: Record<string, { access_token: string }>;
    }
  ).sessions[api.url]!.access_token;

const learnersCount = async () =>
  Number(
    (
      await api.app.db
        .selectFrom('learners')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

const file = (name: string, content: string) => {
  const target = path.join(workDir, name);
  writeFileSync(target, content);
  return target;
};

/** The job of a running import of `fileName` that ccp remembers (imports.json), if any. */
const jobOf = (fileName: string): string | undefined => {
  const file = path.join(configDir, 'imports.json');
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { file_name: string; job: string | null; finished?: boolean }
  >;
  return (
    Object.values(state).find(
      (entry) => entry.file_name === fileName && entry.job && !entry.finished,
    )?.job ?? undefined
  );
};

const learnerRows = (count: number, prefix: string) =>
  Array.from(
    { length: count },
    (_, index) => `Anna,Rossi,${prefix}${index}@example.test,,slack,it`,
  ).join('\n');

beforeAll(async () => {
  api = await startApi();
  configDir = mkdtempSync(path.join(tmpdir(), 'ccp-flows-config-'));
  workDir = mkdtempSync(path.join(tmpdir(), 'ccp-flows-cwd-'));
  const login = await ccp(
    ['login', '--email', 'creator@example.com', '--password-stdin', '--otp', api.totp()],
    { input: `${DEMO_PASSWORD}\n` },
  );
  if (login.code !== 0) throw new Error(`ccp login failed: ${login.stderr}`);
});
afterAll(async () => {
  await runner?.stop();
  await api.close();
  rmSync(configDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

describe('ccp learners import', () => {
  it('--dry-run checks every row here, writes the error CSV and sends nothing (exit 3)', async () => {
    const before = await learnersCount();
    const csv = file(
      'dry.csv',
      'Nome,Cognome,E-mail Address,Cellulare,Canali\nAda,Lovelace,ada@x.test,,slack\nBad1,Row,nope,,slack\nMario,Rossi,,333 123 4567,whatsapp\n',
    );
    const errors = path.join(workDir, 'dry-errors.csv');
    const run = await ccp([
      'learners',
      'import',
      csv,
      '--dry-run',
      '--default-country',
      'IT',
      '--errors-out',
      errors,
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'line 3: first_name: The name may only contain letters, spaces, apostrophes and dashes. | email: The email must be valid.\n',
    );
    expect(run.stderr).toContain(
      'Columns: Nome → first_name, Cognome → last_name, E-mail Address → email, Cellulare → phone, Canali → channels',
    );
    expect(run.stderr).toContain('3 rows, 2 valid, 1 with errors');
    expect(readFileSync(errors, 'utf8')).toBe(
      '\uFEFFline,errors,Nome,Cognome,E-mail Address,Cellulare,Canali\r\n3,"first_name: The name may only contain letters, spaces, apostrophes and dashes. | email: The email must be valid.",Bad1,Row,nope,,slack\r\n',
    );
    expect(await learnersCount()).toBe(before);

    const json = await ccp([
      'learners',
      'import',
      csv,
      '--dry-run',
      '--json',
      '--default-country',
      'IT',
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      total_rows: 3,
      valid: 2,
      failed: 1,
      errors: [{ line: 3 }],
    });
  });

  it('imports an Outlook export (no channel, no language column) with --default-channels and --default-language', async () => {
    const csv = file(
      'outlook.csv',
      'First Name,Middle Name,Last Name,E-mail Address,Mobile Phone,Business Phone\nJonas,,Weber,jonas.weber@outlook.test,0151 23456789,\nLea,,Schulz,lea.schulz@outlook.test,,+49 30 1234567\n',
    );
    const refused = await ccp(['learners', 'import', csv, '--dry-run']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('channels');
    const badFlag = await ccp([
      'learners',
      'import',
      csv,
      '--dry-run',
      '--default-channels',
      'fax',
    ]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--default-channels');

    const flags = ['--default-channels', 'ms-teams', '--default-language', 'de'];
    const dry = await ccp([
      'learners',
      'import',
      csv,
      '--dry-run',
      '--json',
      '--default-country',
      'DE',
      ...flags,
    ]);
    expect(JSON.parse(dry.stdout)).toMatchObject({ total_rows: 2, valid: 2, failed: 0 });

    runner ??= startJobRunner(api.app, { pollMs: 20 });
    const real = await ccp([
      'learners',
      'import',
      csv,
      '--json',
      '--default-country',
      'DE',
      ...flags,
    ]);
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ status: 'completed', created: 2, failed: 0 });
    const found = await ccp(['learners', 'list', '--search', 'jonas.weber@outlook.test', '--json']);
    expect(JSON.parse(found.stdout)).toEqual([
      expect.objectContaining({ phone: '+4915123456789', locale: 'de' }),
    ]);
  });

  it('imports into a list and waits; the error report comes from the job; a re-run changes nothing', async () => {
    runner ??= startJobRunner(api.app, { pollMs: 20 });
    const csv = file(
      'people.csv',
      `first_name,last_name,email,phone,channels,locale\n${learnerRows(50, 'p')}\nX1,Y,bad,,slack,en\n`,
    );
    const errors = path.join(workDir, 'people-errors.csv');
    const before = await learnersCount();
    const run = await ccp([
      'learners',
      'import',
      csv,
      '--list',
      'Sales Italy',
      '--errors-out',
      errors,
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    const job = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(job).toMatchObject({
      status: 'completed',
      total_rows: 51,
      created: 50,
      failed: 1,
      learners_list: { name: 'Sales Italy' },
    });
    expect(await learnersCount()).toBe(before + 50);
    expect(readFileSync(errors, 'utf8')).toContain(
      '52,"first_name: The name may only contain letters',
    );

    // Run again: the first job's result, not a second upload (issue 31); --again imports again.
    const again = await ccp(['learners', 'import', csv, '--list', 'Sales Italy']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`This file was already imported (job ${job.uuid as string}`);
    expect(again.stderr).toMatch(/50 created, 0 updated, 0 unchanged, 1 failed\./);
    expect(again.stdout).toContain('line 52: first_name: The name may only contain letters');
    const forced = await ccp([
      'learners',
      'import',
      csv,
      '--list',
      'Sales Italy',
      '--again',
      '--json',
    ]);
    expect(JSON.parse(forced.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 50,
      failed: 1,
    });
    expect(await learnersCount()).toBe(before + 50);
  });

  it('reads CSV from stdin (-) and prints plain progress lines off a terminal', async () => {
    const run = await ccp(['learners', 'import', '-'], {
      input: `first_name,last_name,email,channels\n${learnerRows(3, 'stdin')}\n`.replace(
        /,,slack,it/g,
        ',slack',
      ),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Uploaded stdin\.csv .*3 rows\./);
    expect(run.stderr).toMatch(/Imported stdin\.csv \(job [0-9a-f-]+\): 3 rows, 3 created/);
    expect(run.stderr).not.toContain('\r');
  });

  it('interrupted while waiting and run again, it re-attaches: exact counts, no duplicates', async () => {
    await runner?.stop();
    runner = null;
    const csv = file(
      'big.csv',
      `first_name,last_name,email,channels\n${learnerRows(300, 'big').replace(/,,slack,it/g, ',slack')}\n`,
    );
    const before = await learnersCount();
    // No job runner: the job stays queued while the first ccp waits for it; Ctrl-C it then.
    const first = await ccp(['learners', 'import', csv], {
      onStart: (child) => {
        const timer = setInterval(() => {
          if (jobOf('big.csv')) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    expect(first.code).toBe(130);
    // Off a terminal, without --cancel-on-interrupt, the job goes on and ccp says how to stop it.
    expect(first.stderr).toContain(
      `Cancelled. The import goes on on the server (job ${jobOf('big.csv')}).`,
    );
    // Run again: it re-attaches to the queued job; only then may the job run.
    const second = await ccp(['learners', 'import', csv], {
      onStart: (child) => {
        let said = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('Re-attaching') && !runner) {
            runner = startJobRunner(api.app, { pollMs: 20 });
          }
        });
      },
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(
      /Re-attaching to the import of this file already under way \(job /,
    );
    expect(second.stderr).toMatch(
      /Imported big\.csv \(job [0-9a-f-]+\): 300 rows, 300 created, 0 updated, 0 unchanged, 0 failed\./,
    );
    expect(await learnersCount()).toBe(before + 300);
    const jobs = await inject<{ file_name: string }[]>(
      'GET',
      '/api/v1/learners/imports?per_page=100',
      session(),
    );
    expect(jobs.data.filter((job) => job.file_name === 'big.csv')).toHaveLength(1);
  });

  it('finds the job of an upload whose answer never arrived (Ctrl-C just after the 202)', async () => {
    await runner?.stop();
    runner = null;
    const csv = file(
      'lost.csv',
      `first_name,last_name,email,channels\n${learnerRows(20, 'lost').replace(/,,slack,it/g, ',slack')}\n`,
    );
    const before = await learnersCount();
    const queued = await ccp(['learners', 'import', csv, '--no-wait']);
    expect(queued.code).toBe(0);
    // As if the answer had been lost: the state knows the upload started, not its job.
    const stateFile = path.join(configDir, 'imports.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<
      string,
      { job: string | null }
    >;
    for (const entry of Object.values(state)) entry.job = null;
    writeFileSync(stateFile, JSON.stringify(state));
    const again = await ccp(['learners', 'import', csv], {
      onStart: (child) => {
        let said = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('Re-attaching') && !runner) {
            runner = startJobRunner(api.app, { pollMs: 20 });
          }
        });
      },
    });
    expect(again.stderr).toContain(
      `Re-attaching to the import of this file already under way (job ${queued.stdout.trim()})`,
    );
    expect(again.code).toBe(0);
    expect(await learnersCount()).toBe(before + 20);
  });

  it('import status re-attaches to a job by id', async () => {
    const csv = file(
      'later.csv',
      `first_name,last_name,email,channels\nLuca,Bianchi,luca@example.test,slack\n`,
    );
    const queued = await ccp(['learners', 'import', csv, '--no-wait']);
    expect(queued.code).toBe(0);
    const job = queued.stdout.trim();
    const status = await ccp(['learners', 'import', 'status', job, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ uuid: job, status: 'completed', created: 1 });
  });
});

describe('ccp learners and lists', () => {
  it('lists, gets, archives and restores learners; lists create and add', async () => {
    const list = await ccp(['learners', 'list', '--search', 'luca@example.test', '--json']);
    const [learner] = JSON.parse(list.stdout) as { uuid: string; email: string }[];
    expect(learner?.email).toBe('luca@example.test');
    expect(
      JSON.parse((await ccp(['learners', 'get', 'luca@example.test', '--json'])).stdout),
    ).toMatchObject({
      uuid: learner!.uuid,
    });
    expect((await ccp(['lists', 'create', 'CI cohort', '--json'])).code).toBe(0);
    expect((await ccp(['lists', 'add', 'CI cohort', 'luca@example.test'])).code).toBe(0);
    const members = JSON.parse(
      (await ccp(['learners', 'list', '--list', 'CI cohort', '--json'])).stdout,
    ) as unknown[];
    expect(members).toHaveLength(1);
    expect((await ccp(['learners', 'archive', learner!.uuid])).stderr).toBe(
      'Archived luca@example.test.\n',
    );
    expect((await ccp(['learners', 'restore', 'luca@example.test'])).code).toBe(0);
  });

  it('never waits on a prompt off a terminal: a permanent delete needs --yes (exit 2)', async () => {
    const run = await ccp(['learners', 'delete', 'luca@example.test']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Missing --yes');
    expect((await ccp(['lists', 'delete', 'CI cohort', '--yes'])).code).toBe(0);
  });
});

describe('ccp courses', () => {
  it('clones a course by name, with a new name', async () => {
    const run = await ccp([
      'courses',
      'clone',
      'Negotiation Basics',
      '--name',
      'Negotiation Basics 2027',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const clone = JSON.parse(run.stdout) as { uuid: string; name: string; status: string };
    expect(clone).toMatchObject({ name: 'Negotiation Basics 2027', status: 'draft' });
  });

  it('pull then push without edits changes nothing; an edit shows its diff and updates', async () => {
    const target = path.join(workDir, 'course.yaml');
    const pull = await ccp(['courses', 'pull', 'Negotiation Basics 2027', '-o', target]);
    expect(pull.code).toBe(0);
    const text = readFileSync(target, 'utf8');
    const doc = parse(text) as {
      uuid: string;
      days: { day: number; lessons: Record<string, { title: string }> }[];
    };
    expect(doc.days.map((day) => day.day)).toEqual([...doc.days.keys()].map((index) => index + 1));

    const before = await inject<{ updated_at: string }>(
      'GET',
      `/api/v1/classrooms/${await firstClassroom()}/courses/${doc.uuid}`,
      session(),
    );
    const same = await ccp(['courses', 'push', target]);
    expect(same).toMatchObject({ code: 0, stdout: '' });
    expect(same.stderr).toContain('No changes');
    const after = await inject<{ updated_at: string }>(
      'GET',
      `/api/v1/classrooms/${await firstClassroom()}/courses/${doc.uuid}`,
      session(),
    );
    expect(after.data.updated_at).toBe(before.data.updated_at);

    const title = doc.days[0]!.lessons.en!.title;
    writeFileSync(target, text.replace(`title: ${title}`, 'title: A better first day'));
    const dry = await ccp(['courses', 'push', target, '--dry-run']);
    expect(dry.stdout).toBe(`~ days.1.en.title: ${JSON.stringify(title)} → "A better first day"\n`);
    const push = await ccp(['courses', 'push', target]);
    expect(push.code).toBe(0);
    expect(push.stderr).toContain('1 change(s)');
    const pulledAgain = await ccp(['courses', 'pull', doc.uuid]);
    expect(pulledAgain.stdout).toBe(readFileSync(target, 'utf8'));
  });

  it('a file without uuid creates a new course with its lessons', async () => {
    const source = path.join(workDir, 'course.yaml');
    const target = path.join(workDir, 'new-course.yaml');
    writeFileSync(
      target,
      readFileSync(source, 'utf8')
        .replace(/^uuid: .*\n/m, '')
        .replace(/^name: .*$/m, 'name: Negotiation from a file'),
    );
    const run = await ccp(['courses', 'push', target]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\+ name: "Negotiation from a file"$/m);
    expect(run.stderr).toMatch(/Created "Negotiation from a file" \(([0-9a-f-]+)\)/);
    const uuid = /\(([0-9a-f-]{36})\)/.exec(run.stderr)![1]!;
    const pulled = parse((await ccp(['courses', 'pull', uuid])).stdout) as Record<string, unknown>;
    const original = parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
    expect({ ...pulled, uuid: undefined, name: undefined, status: undefined }).toEqual({
      ...original,
      uuid: undefined,
      name: undefined,
      status: undefined,
    });
  });

  it('refuses a file that breaks the course rules, naming the field', async () => {
    const target = path.join(workDir, 'course.yaml');
    writeFileSync(
      target,
      readFileSync(target, 'utf8').replace(/learning_minutes: \d+/, 'learning_minutes: 999'),
    );
    const run = await ccp(['courses', 'push', target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/days\[day 1\]\.lessons\.en\.learning_minutes: /);
  });
});

const firstClassroom = async () => {
  const company = await inject<{ uuid: string }>('GET', '/api/v1/company', session());
  const rooms = await inject<{ uuid: string }[]>(
    'GET',
    `/api/v1/companies/${company.data.uuid}/classrooms`,
    session(),
  );
  return rooms.data[0]!.uuid;
};

describe('ccp insights and API tokens (a CI job)', () => {
  let token = '';

  it('tokens create prints the token once; list shows it without the secret', async () => {
    api.clock.advance(30_000);
    const run = await ccp([
      'tokens',
      'create',
      '--name',
      'nightly',
      '--scope',
      'exports:read',
      '--scope',
      'analytics:read',
      '--expires',
      '7',
      '--otp',
      api.totp(),
    ]);
    expect(run.code).toBe(0);
    token = run.stdout.trim();
    expect(token).toMatch(/^ccp_pat_/);
    const list = JSON.parse((await ccp(['tokens', 'list', '--json'])).stdout) as {
      name: string;
      token?: string;
    }[];
    expect(list.map((entry) => entry.name)).toContain('nightly');
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it('tokens create off a terminal without a code exits 2 at once', async () => {
    const run = await ccp(['tokens', 'create', '--name', 'x', '--scope', 'exports:read']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--otp');
  });

  it('insights export -o - with CCP_TOKEN: no login, the download endpoint’s bytes', async () => {
    const env = {
      CCP_TOKEN: token,
      CCP_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'ccp-empty-')),
    };
    const run = await ccp(
      ['insights', 'export', '--course', 'Negotiation Basics', '--type', 'statistics', '-o', '-'],
      { env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(path.join(env.CCP_CONFIG_DIR, 'credentials.json'))).toBe(false);
    // The same export through the API, downloaded: the same bytes.
    const courses = await inject<{ uuid: string; name: string }[]>(
      'GET',
      `/api/v1/classrooms/${await firstClassroom()}/courses/short`,
      session(),
    );
    const course = courses.data.find((entry) => entry.name === 'Negotiation Basics')!;
    const created = await inject<{ export_id: string }>(
      'POST',
      `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics?format=plain`,
      session(),
    );
    const download = await inject<{ file_content: string }>(
      'GET',
      `/api/v1/analytics/exports/${created.data.export_id}/download`,
      session(),
    );
    expect(run.stdoutBytes.equals(Buffer.from(download.data.file_content, 'base64'))).toBe(true);
    expect(run.stdoutBytes.length).toBeGreaterThan(100);

    const show = await ccp(['insights', 'show', '--course', 'Negotiation Basics', '--json'], {
      env,
    });
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'Negotiation Basics', status: 'active' });
  });

  it('a course without data yet exits 3; another classroom is chosen with --classroom', async () => {
    const env = { CCP_TOKEN: token };
    const draft = await ccp(
      [
        'insights',
        'export',
        '--course',
        'Cold Calling 101',
        '--type',
        'statistics',
        '-o',
        path.join(workDir, 'cold.csv'),
      ],
      { env },
    );
    expect(draft.code).toBe(3);
    expect(draft.stderr).toContain('No data yet for "Cold Calling 101"');
    const other = await ccp(['courses', 'list', '--classroom', 'Onboarding', '--json']);
    expect((JSON.parse(other.stdout) as { name: string }[]).map((course) => course.name)).toContain(
      'Welcome to Acme',
    );
    const missing = await ccp(['insights', 'show', '--course', 'Welcome to Acme'], { env });
    expect(missing.code).toBe(2);
    // Only the course's absence: the archived courses the token may not read are no error (issue 31).
    expect(missing.stderr).toBe('No course "Welcome to Acme" in this classroom.\n');
  });

  it('two CI runs at once with the same token both succeed', async () => {
    const env = { CCP_TOKEN: token };
    const args = [
      'insights',
      'export',
      '--course',
      'Negotiation Basics',
      '--type',
      'not-enrolled',
      '-o',
      '-',
    ];
    const runs = await Promise.all([ccp(args, { env }), ccp(args, { env })]);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('a call outside the token’s scopes is refused (403, exit 4, naming the scope); revoked or expired tokens exit 4', async () => {
    const env = { CCP_TOKEN: token };
    const courses = await ccp(['courses', 'list', '--json'], { env });
    expect(courses).toMatchObject({ code: 4, stdout: '' });
    expect(courses.stderr).toContain(
      'This API token does not allow this call: it needs the courses:read scope.',
    );
    const tokens = await ccp(['tokens', 'list'], { env });
    expect(tokens.stderr).toContain(MESSAGES.apiTokenNotAllowed);

    api.clock.advance(8 * 24 * 60 * 60 * 1000);
    const expired = await ccp(['insights', 'show', '--course', 'Negotiation Basics'], { env });
    expect(expired.code).toBe(4);
    expect(expired.stderr).toContain('CCP_TOKEN was refused');
    api.clock.advance(-8 * 24 * 60 * 60 * 1000);

    expect((await ccp(['tokens', 'revoke', 'nightly'])).code).toBe(0);
    const revoked = await ccp(['insights', 'show', '--course', 'Negotiation Basics'], { env });
    expect(revoked.code).toBe(4);
  });
});

describe('ccp completion and version', () => {
  it.each(['bash', 'zsh', 'fish'])(
    'prints a %s completion script naming the commands',
    async (shell) => {
      const run = await ccp(['completion', shell]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('learners');
      expect(run.stdout).toContain('import');
    },
  );

  it('--version prints the package version', async () => {
    const run = await ccp(['--version']);
    expect(run.stdout).toBe('0.1.0\n');
  });
});

/** A loopback server for what the real API never does: hang, answer HTML, stop after a page. */
const fakeServer = async (answer: (url: string, response: ServerResponse) => void) => {
  const server = createServer((request, response) => answer(request.url ?? '/', response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

describe('ccp in a CI job (issue 31)', () => {
  it('a server that accepts and never answers: --timeout 1 fails in about a second (exit 1)', async () => {
    const silent = await fakeServer(() => undefined);
    try {
      const started = Date.now();
      const run = await ccp(['insights', 'show', '--course', 'x', '--timeout', '1'], {
        env: { CCP_TOKEN: 'ccp_pat_x', CCP_API_URL: silent.url },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `The server did not answer in time. (${silent.url}: no answer within 1 s; --timeout or CCP_TIMEOUT sets the limit, 0 for none)`,
      );
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      await silent.close();
    }
  });

  it('a web page instead of the API, and an URL ending in /api, say what the URL should be', async () => {
    const page = await fakeServer((_url, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Welcome</title>');
    });
    try {
      const run = await ccp(['courses', 'list'], {
        env: { CCP_TOKEN: 'ccp_pat_x', CCP_API_URL: page.url },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('The server that answered is not the CCP API');
      expect(run.stderr).toContain('without /api');
      expect(run.stderr).not.toContain('Unexpected token');
    } finally {
      await page.close();
    }
    const suffixed = await ccp(['whoami'], { env: { CCP_API_URL: `${api.url}/api` } });
    expect(suffixed.code).toBe(2);
    expect(suffixed.stderr).toContain('drop the trailing /api');
  });

  it('learners list --all --jsonl writes each page as it arrives (memory stays one page)', async () => {
    const learner = (index: number) => ({ uuid: `u${index}`, first_name: 'A', last_name: 'B' });
    const paged = await fakeServer((url, response) => {
      const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');
      // Page 2 never comes: what page 1 held must already be on stdout.
      if (page > 1) return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          data: Array.from({ length: 100 }, (_, index) => learner(index)),
          meta: { total: 500_000, current_page: 1, per_page: 100, last_page: 5000 },
        }),
      );
    });
    try {
      const run = await ccp(['learners', 'list', '--all', '--jsonl', '--timeout', '1'], {
        env: { CCP_TOKEN: 'ccp_pat_x', CCP_API_URL: paged.url },
      });
      expect(run.code).toBe(1);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(100);
      expect(JSON.parse(lines[99]!)).toMatchObject({ uuid: 'u99' });
    } finally {
      await paged.close();
    }
  });

  it('the API URL of ccp login is remembered: a plain ccp whoami uses it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ccp-remember-'));
    const env = { CCP_CONFIG_DIR: dir, CCP_API_URL: '' };
    // The code comes from the server's (manual) clock: the real time may be steps behind it here.
    api.clock.advance(30_000);
    const login = await ccp(
      [
        '--api-url',
        api.url,
        'login',
        '--email',
        'creator@example.com',
        '--password-stdin',
        '--otp',
        api.totp(),
      ],
      { env, input: `${DEMO_PASSWORD}\n` },
    );
    expect({ code: login.code, stderr: login.stderr }).toMatchObject({ code: 0 });
    const whoami = await ccp(['whoami', '--json'], { env });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ email: 'creator@example.com' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('courses push --dry-run of an active course fails as the push would (exit 1)', async () => {
    const target = path.join(workDir, 'active.yaml');
    expect((await ccp(['courses', 'pull', 'Negotiation Basics', '-o', target])).code).toBe(0);
    const text = readFileSync(target, 'utf8');
    writeFileSync(target, text.replace(/^description: .*$/m, 'description: Changed'));
    const dry = await ccp(['courses', 'push', target, '--dry-run']);
    const push = await ccp(['courses', 'push', target]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain(MESSAGES.courseNotEditable);
    expect(push.code).toBe(dry.code);
    expect(push.stderr).toContain(MESSAGES.courseNotEditable);
  });

  it('cloning twice gives two names; a uuid-less file of an existing name is refused', async () => {
    const first = JSON.parse(
      (await ccp(['courses', 'clone', 'Cold Calling 101', '--json'])).stdout,
    );
    const second = JSON.parse(
      (await ccp(['courses', 'clone', 'Cold Calling 101', '--json'])).stdout,
    );
    expect([first.name, second.name]).toEqual([
      'Cold Calling 101 (copy)',
      'Cold Calling 101 (copy 2)',
    ]);
    const target = path.join(workDir, 'copy.yaml');
    await ccp(['courses', 'pull', first.uuid as string, '-o', target]);
    writeFileSync(target, readFileSync(target, 'utf8').replace(/^uuid: .*\n/m, ''));
    const push = await ccp(['courses', 'push', target, '--dry-run']);
    expect(push.code).toBe(1);
    expect(push.stderr).toContain(`Add "uuid: ${first.uuid as string}" to update it`);
  });
});

describe('ccp learners import: Ctrl-C, cancel and a read-only home (issue 31)', () => {
  const queuedImport = async (name: string, rows: number, extra: string[] = []) => {
    await runner?.stop();
    runner = null;
    const csv = file(
      name,
      `first_name,last_name,email,channels\n${learnerRows(rows, name.replace(/\W/g, '')).replace(/,,slack,it/g, ',slack')}\n`,
    );
    return ccp(['learners', 'import', csv, ...extra], {
      onStart: (child) => {
        const timer = setInterval(() => {
          if (jobOf(name)) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
  };
  const jobStatus = async (uuid: string) =>
    (await inject<{ status: string }>('GET', `/api/v1/learners/imports/${uuid}`, session())).data
      .status;

  it('Ctrl-C (SIGINT) with --cancel-on-interrupt stops the job on the server (exit 130)', async () => {
    let job = '';
    const run = await queuedImport('stop.csv', 30, ['--cancel-on-interrupt']);
    job = /job ([0-9a-f-]{36})/.exec(run.stderr)?.[1] ?? '';
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`Stopped the import on the server (job ${job})`);
    expect(await jobStatus(job)).toBe('canceled');
  });

  it('without it the job goes on; import cancel (no job id) stops the last one, status shows it', async () => {
    const run = await queuedImport('later-stop.csv', 30);
    expect(run.code).toBe(130);
    const job = jobOf('later-stop.csv')!;
    expect(await jobStatus(job)).toBe('queued');
    const cancel = await ccp(['learners', 'import', 'cancel']);
    expect(cancel.code).toBe(0);
    expect(cancel.stderr).toContain(`Stopped the import on the server (job ${job})`);
    const status = await ccp(['learners', 'import', 'status', '--no-wait', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ uuid: job, status: 'canceled' });
    expect((await ccp(['learners', 'import', 'cancel', job])).code).toBe(1);
  });

  it('HOME=/dev/null with only CCP_TOKEN/CCP_API_URL: imports, writes nothing', async () => {
    runner ??= startJobRunner(api.app, { pollMs: 20 });
    api.clock.advance(30_000);
    const created = await ccp([
      'tokens',
      'create',
      '--name',
      'ci-import',
      '--scope',
      'learners:write',
      '--otp',
      api.totp(),
    ]);
    expect(created.code).toBe(0);
    const csv = file(
      'ci.csv',
      `first_name,last_name,email,channels\n${learnerRows(5, 'ci').replace(/,,slack,it/g, ',slack')}\n`,
    );
    const env: Record<string, string> = {
      HOME: '/dev/null',
      CCP_CONFIG_DIR: '',
      XDG_CONFIG_HOME: '',
      CCP_TOKEN: created.stdout.trim(),
    };
    const run = await ccp(['learners', 'import', csv], { env });
    expect(run.stderr).not.toContain('ENOTDIR');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Imported ci\.csv \(job [0-9a-f-]+\): 5 rows, 5 created/);
  });
});

describe('ccp insights export: the same bytes under any locale (issue 31)', () => {
  it('LANG=de_DE.UTF-8 and LANG=C give identical plain files; --excel is the spreadsheet one', async () => {
    const args = ['insights', 'export', '--course', 'Negotiation Basics', '--type', 'statistics'];
    const c = await ccp(args, { env: { LANG: 'C' } });
    const de = await ccp(args, { env: { LANG: 'de_DE.UTF-8' } });
    expect(c.code).toBe(0);
    expect(de.stdoutBytes.equals(c.stdoutBytes)).toBe(true);
    expect(c.stdoutBytes[0]).not.toBe(0xef);
    expect(c.stdout.split('\r\n')[0]).toContain(',');
    expect(c.stdout).not.toMatch(/'\+\d/);
    const excel = await ccp([...args, '--excel'], { env: { LANG: 'de_DE.UTF-8' } });
    expect(excel.stdout.startsWith('\uFEFF')).toBe(true);
    expect(excel.stdout.split('\r\n')[0]).toContain(';');
    const tabbed = await ccp([...args, '--delimiter', 'tab', '--bom']);
    expect(tabbed.stdout.startsWith('\uFEFF')).toBe(true);
    expect(tabbed.stdout.split('\r\n')[0]).toContain('\t');
  });
});
