import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { hashPassword, verifyPassword } from '../../src/lib/passwords.ts';

const PASSWORDS_MODULE = fileURLToPath(new URL('../../src/lib/passwords.ts', import.meta.url));

/** A hash made by a process that is not a test run (NODE_ENV unset), as a server makes it. */
const hashOutsideTests = (password: string): string => {
  const env = { ...process.env };
  delete env.NODE_ENV;
  return execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { hashPassword } = await import(${JSON.stringify(PASSWORDS_MODULE)});
       process.stdout.write(await hashPassword(${JSON.stringify(password)}));`,
    ],
    { env, cwd: path.dirname(PASSWORDS_MODULE), encoding: 'utf8' },
  );
};

describe('password hashes', () => {
  it('are made with OWASP’s scrypt cost by a server, and verify under the test runner’s lower cost', async () => {
    const stored = hashOutsideTests('Correct horse 42!');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('Correct horse 42!', stored)).toBe(true);
    expect(await verifyPassword('correct horse 42!', stored)).toBe(false);

    // The suites sign in thousands of times: their own hashes are cheaper, and still verify.
    const cheap = await hashPassword('Correct horse 42!');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('Correct horse 42!', cheap)).toBe(true);
  });
});
