import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A module resolve hook that refuses React and Refine's runtime: importing the package in a plain
// Node process under it proves the CLI never loads them (type imports are erased by tsx).
const guard = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
  const forbidden = /^(react|react-dom|@refinedev\\\\/core|@tanstack\\\\/react-query)(\\\\/|$)/;
  export async function resolve(specifier, context, next) {
    if (forbidden.test(specifier)) throw new Error('forbidden import: ' + specifier);
    return next(specifier, context);
  }
\`));
`;

const script = `
const entry = await import(process.argv[1]);
let guarded = false;
try { await import('react'); } catch (error) { guarded = String(error.message).includes('forbidden import'); }
console.log(JSON.stringify({ guarded, exports: Object.keys(entry).length, hasProvider: typeof entry.dataProvider }));
`;

describe('the package entry', () => {
  it('loads in plain Node without React or Refine’s runtime', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        `data:text/javascript,${encodeURIComponent(guard)}`,
        '--input-type=module',
        '-e',
        script,
        path.join(packageDir, 'src/index.ts'),
      ],
      { cwd: packageDir, encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ guarded: true, hasProvider: 'function' });
  });
});
