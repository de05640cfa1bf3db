import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { buildApp } from '../../src/app.ts';
import { saveConnection } from '../../src/delivery/connections.ts';
import { createManualClock } from '../../src/lib/clock.ts';
import { createSecretBox, parseSecretsKey } from '../../src/lib/secrets.ts';
import { createCompany } from '../helper.ts';
import { sharedDatabase } from '../fixtures/delivery.ts';

// Channel secrets at rest: AES-256-GCM under CCP_SECRETS_KEY, bound to their row, and a server
// with connections but no key refuses to start instead of failing every send.

const KEY = randomBytes(32);

describe('secrets at rest', () => {
  it('seals and opens, and refuses a tampered value, another row or another key', () => {
    const box = createSecretBox(KEY);
    const sealed = box.seal({ bot_token: 'xoxb-1' }, 'row-1');
    expect(sealed).not.toContain('xoxb');
    expect(box.open(sealed, 'row-1')).toEqual({ bot_token: 'xoxb-1' });
    expect(box.seal({ bot_token: 'xoxb-1' }, 'row-1')).not.toBe(sealed);
    expect(() => box.open(sealed, 'row-2')).toThrow();
    const parts = sealed.split(':');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    expect(() =>
      box.open([...parts.slice(0, 3), data.toString('base64url')].join(':'), 'row-1'),
    ).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'row-1')).toThrow();
  });

  it('takes the key in base64 or hex and names the variable when it is wrong', () => {
    expect(parseSecretsKey(KEY.toString('base64'))).toEqual(KEY);
    expect(parseSecretsKey(KEY.toString('hex'))).toEqual(KEY);
    expect(() => parseSecretsKey('short')).toThrow(/CCP_SECRETS_KEY/);
  });

  it('a server with connections refuses to start without the key', async () => {
    const shared = await sharedDatabase();
    const clock = createManualClock('2026-11-22T09:00:00.000Z');
    const first = await buildApp({
      database: shared.config,
      dataDir: shared.dataDir,
      clock,
      secretsKey: KEY.toString('base64'),
    });
    const company = await createCompany(first);
    await saveConnection(first, {
      companyUuid: company.uuid,
      channel: 'slack',
      providerIds: {},
      secrets: { bot_token: 'xoxb-1', signing_secret: 's' },
      userUuid: null,
    });
    await first.close();
    await expect(
      buildApp({ database: shared.config, dataDir: shared.dataDir, clock }),
    ).rejects.toThrow(/CCP_SECRETS_KEY/);
    const again = await buildApp({
      database: shared.config,
      dataDir: shared.dataDir,
      clock,
      secretsKey: KEY.toString('hex'),
    });
    await again.close();
  });
});
