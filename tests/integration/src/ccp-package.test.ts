import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

// `ccp` as a user installs it: packed, installed globally into a prefix of its own, run from a
// directory outside the repository, with no TypeScript loader and no dependencies to fetch.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'ccp-package-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed ccp', () => {
  it('installs with npm install -g from its tarball and runs on its own', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };
    // --ignore-scripts: the test script built dist already, and a rebuild would pull it from under
    // the other test files' ccp processes.
    execFileSync(npm, ['pack', '-w', '@ccp/cli', '--ignore-scripts', '--pack-destination', dir], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
    });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    const prefix = path.join(dir, 'prefix');
    execFileSync(npm, ['install', '-g', '--offline', '--prefix', prefix, path.join(dir, tarball)], {
      cwd: dir,
      env,
      stdio: 'ignore',
    });
    const ccp = path.join(prefix, 'bin', 'ccp');
    const version = spawnSync(ccp, ['--version'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(version.stdout).toBe('0.1.0\n');
    const installed = path.join(prefix, 'lib', 'node_modules', '@ccp', 'cli');
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'bin', 'dist', 'package.json']);

    const csv = path.join(dir, 'learners.csv');
    writeFileSync(csv, 'Nome,Cognome,E-mail,Canali\nAda,Lovelace,ada@example.com,slack\n');
    const check = spawnSync(ccp, ['learners', 'import', csv, '--dry-run', '--json'], {
      cwd: tmpdir(),
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    });
    expect(check.status).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ total_rows: 1, valid: 1, failed: 0 });
  }, 120_000);
});
