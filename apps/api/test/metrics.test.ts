import { describe, expect, it } from 'vitest';

import { enqueueJob } from '../src/jobs/queue.ts';
import { runClaimedJob, claimNextJob } from '../src/jobs/runner.ts';
import { JobFailure } from '../src/jobs/types.ts';
import { newUuid } from '../src/lib/ids.ts';
import { buildTestApp, createCompany, createUser, TEST_PASSWORD } from './helper.ts';
import type { TestApp } from './helper.ts';
import { createWorld, learnersList, publishCourse, tickAt } from './fixtures/delivery.ts';

// GET /metrics (issue 18): Prometheus' text format, closed unless the operator opened it with a
// token or for loopback, and the figures an operator watches: requests by route and status, the
// job queue, job durations, lessons per channel, sign-in failures and lockouts.

const TOKEN = 'scrape-secret-0123456789';
const PLATFORM = 'content_creators_platform';

const scrape = async (app: TestApp, token = TOKEN) => {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.statusCode,
    type: response.headers['content-type'],
    body: response.body,
  };
};

/** The value of one sample line (`name{labels} value`), or undefined when it is not there. */
const sample = (body: string, series: string): number | undefined => {
  const line = body.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics is closed by default', async () => {
  const app = await buildTestApp();

  it('answers 404 with neither a token nor loopback configured, even from loopback', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('ccp_http_requests_total');
  });
});

describe('/metrics opened for loopback scrapes', async () => {
  const app = await buildTestApp({ metrics: { loopback: true } });

  it('answers a scrape from 127.0.0.1 and refuses one from elsewhere', async () => {
    const local = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    expect(local.body).toContain('# TYPE ccp_http_requests_total counter');
    const remote = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(404);
  });
});

describe('/metrics with CCP_METRICS_TOKEN', async () => {
  const app = await buildTestApp({ metrics: { token: TOKEN } });
  const company = await createCompany(app);
  const user = await createUser(app, company);

  it('needs the bearer token, also from loopback', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await scrape(app, 'wrong-token')).status).toBe(404);
    const ok = await scrape(app);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    // Node's process metrics come along.
    expect(ok.body).toContain('ccp_process_resident_memory_bytes');
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/api/health' });
    const id = newUuid();
    await app.inject({ method: 'GET', url: `/api/v1/learners/${id}` });
    const { body } = await scrape(app);
    expect(
      sample(body, 'ccp_http_requests_total{method="GET",route="/api/health",status="200"}'),
    ).toBe(2);
    expect(
      sample(
        body,
        'ccp_http_requests_total{method="GET",route="/api/v1/learners/:uuid",status="401"}',
      ),
    ).toBe(1);
    expect(body).not.toContain(id);
    expect(
      sample(
        body,
        'ccp_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}',
      ),
    ).toBe(2);
  });

  it('counts wrong passwords and the lockout they lead to', async () => {
    const login = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/users/oauth/token',
        payload: { username: user.email, password, platform: PLATFORM },
        remoteAddress: '10.9.9.9',
      });
    for (let attempt = 1; attempt <= 5; attempt += 1)
      expect((await login(`wrong-${attempt}`)).statusCode).toBe(400);
    expect((await login(TEST_PASSWORD)).statusCode).toBe(429);
    const { body } = await scrape(app);
    expect(sample(body, 'ccp_sign_in_failures_total{step="password"}')).toBe(5);
    expect(sample(body, 'ccp_sign_in_lockouts_total')).toBe(1);
  });

  it('reports the job queue by kind and the duration of jobs by outcome', async () => {
    const kind = `metrics_${newUuid().slice(0, 8)}`;
    const queue = () =>
      enqueueJob(
        app.db,
        {
          uuid: newUuid(),
          company_uuid: company.uuid,
          user_uuid: null,
          kind,
          total_rows: 1,
          input_path: null,
          options: '{}',
        },
        app.clock.now().toISOString(),
      );
    await queue();
    await queue();
    let body = (await scrape(app)).body;
    expect(sample(body, `ccp_jobs{kind="${kind}",status="queued"}`)).toBe(2);

    const texts = { interrupted: 'Interrupted.', internalError: 'Internal.' };
    const worker = { kinds: [kind], worker: 'test', staleBefore: app.clock.now().toISOString() };
    await runClaimedJob(app, (await claimNextJob(app, worker))!, { texts, run: async () => ({}) });
    await runClaimedJob(app, (await claimNextJob(app, worker))!, {
      texts,
      run: async () => {
        throw new JobFailure('The file is gone.');
      },
    });
    body = (await scrape(app)).body;
    expect(sample(body, `ccp_jobs{kind="${kind}",status="queued"}`)).toBeUndefined();
    expect(sample(body, `ccp_job_duration_seconds_count{kind="${kind}",status="completed"}`)).toBe(
      1,
    );
    expect(sample(body, `ccp_job_duration_seconds_count{kind="${kind}",status="failed"}`)).toBe(1);
  });
});

describe('/metrics: lessons per channel', async () => {
  const app = await buildTestApp({ metrics: { token: TOKEN } });
  const world = await createWorld(app);

  it('counts the lessons the scheduler sent, by channel', async () => {
    app.testClock.set('2026-11-22T09:00:00.000Z');
    const { list } = await learnersList(app, world, [{}, {}, {}]);
    await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    expect((await tickAt(app, '2026-11-23T08:30:00.000Z')).sent).toBe(3);
    const { body } = await scrape(app);
    expect(sample(body, 'ccp_lessons_total{channel="slack",status="sent"}')).toBe(3);
  });
});
