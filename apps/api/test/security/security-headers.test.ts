import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// helmet's defaults without a Content-Security-Policy (the API answers JSON; the web app sets its
// own): on every answer, a success, an error and a path no route claims alike.
const SECURITY_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', async () => {
  const app = await buildTestApp({ webDist: false });

  it('are on every answer: a list, a refusal, a validation error, an unknown path', async () => {
    const { headers } = await createSignedInUser(app);
    const answers = [
      await call(app, { method: 'GET', url: '/api/v1/learners', headers }),
      await call(app, { method: 'GET', url: '/api/v1/learners' }),
      await call(app, { method: 'GET', url: '/api/v1/learners?archived=maybe', headers }),
      await call(app, { method: 'GET', url: '/api/v1/nothing-here', headers }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 422, 404]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(SECURITY_HEADERS);
      expect(answer.headers['content-security-policy']).toBeUndefined();
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });
});
