// `npm start` runs this first: it builds the web app when apps/web/dist is missing or older than
// anything it is built from, so a fresh checkout serves the app at / after `npm install && npm start`.
// CCP_SKIP_WEB_BUILD=1 skips it (the API then serves whatever is built, or the API only).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'locales',
  'packages/schemas/src',
  'packages/data-provider/src',
];

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

if (process.env.CCP_SKIP_WEB_BUILD !== '1') {
  const built = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((source) => newest(path.join(root, source))));
  if (sources > built) {
    process.stdout.write(
      built
        ? 'The web app changed: rebuilding apps/web/dist…\n'
        : 'Building the web app (apps/web/dist)…\n',
    );
    const result = spawnSync('npm', ['run', 'bundle', '-w', '@ccp/web'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      if (!built) {
        process.stderr.write('The web app did not build; see the errors above.\n');
        process.exit(result.status ?? 1);
      }
      process.stderr.write('The web app did not build; serving the previous build.\n');
    }
  }
}
