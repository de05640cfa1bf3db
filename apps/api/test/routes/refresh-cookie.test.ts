import { CSRF_HEADER, REFRESH_COOKIE_HEADER, REFRESH_COOKIE_NAME } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { REFRESH_REUSE_GRACE_SECONDS } from '../../src/lib/tokens.ts';
import { bearer, login, me, refresh } from '../fixtures/auth.ts';
import { PLATFORM, buildTestApp, call, createCompany, createUser, totpCode } from '../helper.ts';

// Issue 30, item 9: the browser's refresh token is an HttpOnly cookie sent only to the refresh
// call, which then needs the CSRF header; a script of the page never sees it. The CLI's
// body-token flow is unchanged.

const app = await buildTestApp();
/** A deployment's host: only plain http to a loopback host leaves Secure out. */
const PUBLIC_HOST = 'ccp.example.test';

/** `name=value` of the response's refresh cookie, and its attributes. */
const refreshCookie = (headers: Record<string, unknown>) => {
  const raw = headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : [raw]).find(
    (value): value is string =>
      typeof value === 'string' && value.startsWith(`${REFRESH_COOKIE_NAME}=`),
  );
  if (!line) return null;
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  return { pair, attributes };
};

const cookieRefresh = (cookie: string, csrf = true) =>
  call(app, {
    method: 'POST',
    url: '/api/v1/users/oauth/refresh',
    headers: { cookie, [REFRESH_COOKIE_HEADER]: '1', ...(csrf ? { [CSRF_HEADER]: '1' } : {}) },
    payload: { platform: PLATFORM },
  });

describe('the refresh token as an HttpOnly cookie (issue 30)', () => {
  it('signs in without a readable refresh token, refreshes only with the CSRF header, and signs out', async () => {
    const user = await createUser(app, await createCompany(app));
    const first = (await login(app, user.email)).json.data;
    const second = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: { ...bearer(first.access_token), [REFRESH_COOKIE_HEADER]: '1', host: PUBLIC_HOST },
      payload: { refresh_token: first.refresh_token, platform: PLATFORM, code: totpCode(app) },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json.data.refresh_token).toBe('');
    const cookie = refreshCookie(second.headers)!;
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        'Path=/api/v1/users/oauth/refresh',
        'HttpOnly',
        'Secure',
        'SameSite=Strict',
        `Max-Age=${app.authSettings.refreshTtlSeconds}`,
      ]),
    );

    // Another site's page can send the cookie but not add a header: refused.
    const forged = await cookieRefresh(cookie.pair, false);
    expect(forged.statusCode).toBe(403);
    expect(forged.json.error.message).toBe('This request must come from the CCP app itself.');

    const rotated = await cookieRefresh(cookie.pair);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json.data.refresh_token).toBe('');
    expect((await me(app, rotated.json.data.access_token)).statusCode).toBe(200);
    const next = refreshCookie(rotated.headers)!;
    expect(next.pair).not.toBe(cookie.pair);
    // The answer was lost (the tab closed) or another tab sent the same cookie at once: within
    // the grace the spent cookie answers the same successor, cookie and access token alike.
    app.testClock.advance(5_000);
    const repeated = await cookieRefresh(cookie.pair);
    expect(repeated.statusCode).toBe(200);
    expect(refreshCookie(repeated.headers)!.pair).toBe(next.pair);
    expect(repeated.json.data.access_token).toBe(rotated.json.data.access_token);
    // After the grace the spent cookie ends the sign-in, as a spent body token does.
    app.testClock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000);
    expect((await cookieRefresh(cookie.pair)).statusCode).toBe(401);
    expect((await cookieRefresh(next.pair)).statusCode).toBe(401);

    const again = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/token',
      payload: { username: user.email, password: 'Correct-Horse-9!', platform: PLATFORM },
    });
    app.testClock.advance(30_000);
    const signedIn = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: { ...bearer(again.json.data.access_token), [REFRESH_COOKIE_HEADER]: '1' },
      payload: {
        refresh_token: again.json.data.refresh_token,
        platform: PLATFORM,
        code: totpCode(app),
      },
    });
    const out = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/logout',
      headers: bearer(signedIn.json.data.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect(refreshCookie(out.headers)).toEqual({
      pair: `${REFRESH_COOKIE_NAME}=`,
      attributes: expect.arrayContaining(['Max-Age=0', 'Path=/api/v1/users/oauth/refresh']),
    });
  });

  it('leaves Secure out only over plain http to a loopback host, where npm start serves', async () => {
    const user = await createUser(app, await createCompany(app));
    const secureOn = async (host: string) => {
      app.testClock.advance(30_000);
      const first = (await login(app, user.email)).json.data;
      const signedIn = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/2fa-token',
        headers: { ...bearer(first.access_token), [REFRESH_COOKIE_HEADER]: '1', host },
        payload: { refresh_token: first.refresh_token, platform: PLATFORM, code: totpCode(app) },
      });
      const cookie = refreshCookie(signedIn.headers)!;
      expect(cookie.attributes).toEqual(
        expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/v1/users/oauth/refresh']),
      );
      const out = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/logout',
        headers: { ...bearer(signedIn.json.data.access_token), host },
      });
      // Clearing uses the same attributes, or a browser would keep the cookie it set.
      expect(refreshCookie(out.headers)!.attributes.includes('Secure')).toBe(
        cookie.attributes.includes('Secure'),
      );
      return cookie.attributes.includes('Secure');
    };
    expect(await secureOn('localhost:8080')).toBe(false);
    expect(await secureOn('127.0.0.1:8080')).toBe(false);
    expect(await secureOn('[::1]:8080')).toBe(false);
    expect(await secureOn(PUBLIC_HOST)).toBe(true);
    expect(await secureOn('localhost.example.test')).toBe(true);
  });

  it('without the cookie header the pair is answered in the body, as the CLI keeps it', async () => {
    const user = await createUser(app, await createCompany(app));
    const first = (await login(app, user.email)).json.data;
    app.testClock.advance(30_000);
    const second = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: bearer(first.access_token),
      payload: { refresh_token: first.refresh_token, platform: PLATFORM, code: totpCode(app) },
    });
    expect(second.json.data.refresh_token).not.toBe('');
    expect(refreshCookie(second.headers)).toBeNull();
    expect((await refresh(app, second.json.data.refresh_token)).statusCode).toBe(200);
    // Neither a body token nor a cookie: the field is required.
    const none = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/refresh',
      payload: { platform: PLATFORM },
    });
    expect(none.statusCode).toBe(422);
  });
});
