// `npm start` runs this first: it builds what the server runs when the build is missing or older
// than anything it is built from, so a fresh checkout serves compiled code at / after
// `npm install && npm start`, and a second start builds nothing.
//   node scripts/build-if-stale.js [web] [api]     (both when none is named)
// - web: apps/web/dist, the web app the API serves (CCP_SKIP_WEB_BUILD=1 skips it: the API then
//   serves whatever is built, or the API only);
// - api: apps/api/dist, the API compiled to JavaScript (apps/api/scripts/build.js).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

const buildIfStale = (target) => {
  if (target.skip) return;
  const builtPath = path.join(root, target.built);
  const built = existsSync(builtPath) ? statSync(builtPath).mtimeMs : 0;
  const sources = Math.max(...target.sources.map((source) => newest(path.join(root, source))));
  if (sources <= built) return;
  process.stdout.write(
    built ? `${target.label} changed: rebuilding…\n` : `Building ${target.label}…\n`,
  );
  const [command, ...args] = target.command;
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status === 0) return;
  if (built && target.optional) {
    process.stderr.write(`${target.label} did not build; serving the previous build.\n`);
    return;
  }
  process.stderr.write(`${target.label} did not build; see the errors above.\n`);
  process.exit(result.status ?? 1);
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
  buildIfStale(target);
}
