// `npm start` runs this first: it builds what the server runs when the build is missing or older
// than anything it is built from, so a fresh checkout serves compiled code at / after
// `npm install && npm start`, and a second start builds nothing.
//   node scripts/build-if-stale.js [web] [api]     (both when none is named)
// - web: apps/web/dist, the web app the API serves (CCP_SKIP_WEB_BUILD=1 skips it: the API then
//   serves whatever is built, or the API only);
// - api: apps/api/dist, the API compiled to JavaScript (apps/api/scripts/build.js).
// Test files running side by side may ask for the same build at once: a lock per target lets one
// build while the others wait and then find it fresh (two builds into one dist/ would mix).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

const TARGETS = {
  web: {
    label: 'the web app (apps/web/dist)',
    built: 'apps/web/dist/index.html',
    command: ['npm', 'run', 'bundle', '-w', '@ccp/web'],
    skip: process.env.CCP_SKIP_WEB_BUILD === '1',
    // Without a web build the API still serves its routes: a failed build is not fatal.
    optional: true,
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'locales',
      'packages/schemas/src',
      'packages/data-provider/src',
    ],
  },
  api: {
    label: 'the API (apps/api/dist)',
    built: 'apps/api/dist/BUILT',
    command: [process.execPath, 'apps/api/scripts/build.js'],
    skip: false,
    optional: false,
    // The bundle carries most dependencies: a changed lock file rebuilds it too.
    sources: [
      'apps/api/src',
      'apps/api/scripts',
      'apps/api/package.json',
      'locales',
      'packages/schemas/src',
      'package-lock.json',
    ],
  },
};

/** The newest modification time under a path, ignoring tests. */
const newest = (target) => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(target) ? 0 : stat.mtimeMs;
  return readdirSync(target).reduce(
    (latest, entry) => Math.max(latest, newest(path.join(target, entry))),
    0,
  );
};

const LOCK_POLL_MS = 200;

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the process that took a lock has gone (killed mid-build: its lock is left behind). */
const holderGone = (lock) => {
  let pid;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    // Taken a moment ago and its pid not written yet, or released meanwhile; a minute without
    // a pid: its holder died in between.
    try {
      return Date.now() - statSync(lock).mtimeMs > 60_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
};

/** Runs `run` holding the target's lock (a directory: creating one is atomic). */
const withLock = (name, run) => {
  const lock = path.join(root, 'node_modules', '.cache', 'build-if-stale', `${name}.lock`);
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (holderGone(lock)) rmSync(lock, { recursive: true, force: true });
    else pause(LOCK_POLL_MS);
  }
  writeFileSync(path.join(lock, 'pid'), String(process.pid));
  try {
    return run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
};

/** Builds the target when stale; answers the exit status to end with (0: built or fresh). */
const buildIfStale = (target) => {
  if (target.skip) return 0;
  const builtPath = path.join(root, target.built);
  const built = existsSync(builtPath) ? statSync(builtPath).mtimeMs : 0;
  const sources = Math.max(...target.sources.map((source) => newest(path.join(root, source))));
  if (sources <= built) return 0;
  process.stdout.write(
    built ? `${target.label} changed: rebuilding…\n` : `Building ${target.label}…\n`,
  );
  const [command, ...args] = target.command;
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status === 0) return 0;
  if (built && target.optional) {
    process.stderr.write(`${target.label} did not build; serving the previous build.\n`);
    return 0;
  }
  process.stderr.write(`${target.label} did not build; see the errors above.\n`);
  return result.status ?? 1;
};

const named = process.argv.slice(2);
for (const name of named.length > 0 ? named : Object.keys(TARGETS)) {
  const target = TARGETS[name];
  if (!target) {
    process.stderr.write(
      `Unknown build target "${name}" (known: ${Object.keys(TARGETS).join(', ')})\n`,
    );
    process.exit(2);
  }
  const status = withLock(name, () => buildIfStale(target));
  if (status !== 0) process.exit(status);
}
