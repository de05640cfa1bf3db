import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { signInWithCode } from './fixtures/auth.ts';
import { buildTestApp, call, createCompany, createUser, TEST_PASSWORD } from './helper.ts';

describe('structured logs', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildTestApp({ logger: { level: 'info', stream } });

  it('writes JSON lines that never carry passwords, tokens or codes', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const tokens = await signInWithCode(app, user.email);
    const me = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(200);

    expect(lines.length).toBeGreaterThan(0);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.some((record) => record.msg === 'incoming request')).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(TEST_PASSWORD);
    expect(all).not.toContain(tokens.access_token);
    expect(all).not.toContain(tokens.refresh_token);
  });
});
