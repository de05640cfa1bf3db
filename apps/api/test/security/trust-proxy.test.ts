import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.ts';
import { parseTrustProxy } from '../../src/lib/trust-proxy.ts';
import {
  call,
  buildTestApp,
  createCompany,
  createUser,
  PLATFORM,
  TEST_PASSWORD,
} from '../helper.ts';

// Issue 30, item 3: CCP_TRUST_PROXY=1 believed every X-Forwarded-For hop, so a client that sent
// its own header (nginx's $proxy_add_x_forwarded_for appends to it) was never locked out and the
// audit log recorded the address it chose. Now the server believes exactly its proxies.

const NGINX = '10.9.9.9';
const BALANCER = '10.0.0.1';
const CLIENT = '203.0.113.7';

/**
 * Six sign-ins, five with a wrong password and then the right one, each with another forged
 * first hop: the statuses and the client addresses the server saw.
 */
const signInsWithForgedHops = async (
  trust: string,
  { socket, hops }: { socket: string; hops: (forged: string) => string },
) => {
  const app = await buildTestApp({ trustProxy: loadConfig({ CCP_TRUST_PROXY: trust }).trustProxy });
  const user = await createUser(app, await createCompany(app));
  const attempt = (n: number, password: string) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/token',
      remoteAddress: socket,
      headers: { 'x-forwarded-for': hops(`198.51.100.${n}`) },
      payload: { username: user.email, password, platform: PLATFORM },
    });
  const statuses: number[] = [];
  for (let n = 1; n <= 5; n += 1) statuses.push((await attempt(n, `wrong-${n}`)).statusCode);
  statuses.push((await attempt(6, TEST_PASSWORD)).statusCode);
  // The addresses the failures were counted against (what the audit log and sessions record).
  const keys = await app.db
    .selectFrom('auth_failures')
    .select('key')
    .distinct()
    .where('key', 'like', 'ip:%')
    .execute();
  return { statuses, addresses: keys.map((row) => row.key.slice('ip:'.length)) };
};

const LOCKED = { statuses: [400, 400, 400, 400, 400, 429], addresses: [CLIENT] };

describe('CCP_TRUST_PROXY believes exactly the proxies in front (issue 30)', () => {
  it('1 (nginx): a forged header sent through nginx changes nothing, the 6th sign-in is locked', async () => {
    // nginx appends the address it saw to what the client sent.
    const statuses = await signInsWithForgedHops('1', {
      socket: NGINX,
      hops: (forged) => `${forged}, ${CLIENT}`,
    });
    expect(statuses).toEqual(LOCKED);
  });

  it('2 (load balancer, then nginx): the client is the entry the balancer added', async () => {
    const statuses = await signInsWithForgedHops('2', {
      socket: NGINX,
      hops: (forged) => `${forged}, ${CLIENT}, ${BALANCER}`,
    });
    expect(statuses).toEqual(LOCKED);
  });

  it('a CIDR list: hops from the proxies are believed, a direct client’s header is not', async () => {
    const through = await signInsWithForgedHops('10.0.0.0/8, 127.0.0.1', {
      socket: NGINX,
      hops: (forged) => `${forged}, ${CLIENT}, ${BALANCER}`,
    });
    expect(through).toEqual(LOCKED);
    const direct = await signInsWithForgedHops('10.0.0.0/8', {
      socket: CLIENT,
      hops: (forged) => forged,
    });
    expect(direct).toEqual(LOCKED);
  });

  it('reads the setting, and stops start-up on a value it cannot use', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.5,fd00::/8, loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'fd00::/8',
      'loopback',
    ]);
    for (const wrong of ['10.0.0.0/33', 'nginx', '1.2.3', '-1', '10.0.0.0/8,,x']) {
      expect(() => loadConfig({ CCP_TRUST_PROXY: wrong })).toThrow(/CCP_TRUST_PROXY/);
    }
  });
});
