import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { PLATFORM } from '@ccp/schemas';
import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { build } from 'vite';

import { DEMO_PASSWORD, seedDemo } from '../apps/api/src/seed/demo.ts';
import {
  REPO,
  buildBare,
  cleanOut,
  coldLoad,
  kb,
  launchChromium,
  median,
  serve,
} from './lib/pages.ts';

// The dashboard's cost (issue 10): with 100 courses in the classroom, the time from submitting
// the sign-in code to 100 course cards on screen, against the time a bare React page built and
// served the same way takes to show its form (bench/login.ts); and the JS the dashboard loads
// after the password step. Target: ≤ 4× the bare page. The charts, the wizard and the learners
// pages must stay out of what the dashboard loads.
// Run: npx tsx bench/dashboard.ts  (BENCH_RUNS=5, CHROMIUM_PATH=/usr/bin/chromium)

const TARGET_RATIO = 4;
const COURSES = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const EMAIL = 'creator@example.com';
const SECRET = 'JBSWY3DPEHPK3PXP';
const OUT = path.join(REPO, 'bench/out/dashboard');
const WEB = path.join(REPO, 'apps/web');
/** Sources the dashboard must not load (their chunks are named in Vite's manifest). */
const FORBIDDEN = [
  /@ant-design\/charts/,
  /src\/pages\/learners/,
  /src\/pages\/analytics/,
  /src\/pages\/courses\/(create|import)/,
];

// Each TOTP step signs in once: the server's clock moves 30 s ahead before every sign-in.
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const nextCode = () => {
  offsetMs += 30_000;
  return OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(SECRET),
    timestamp: clock.now().getTime(),
  });
};

type TInject = Awaited<ReturnType<typeof serve>>['app']['inject'];

/** The demo plus bench courses, so the first classroom holds exactly COURSES live courses. */
const seed = async (app: Awaited<ReturnType<typeof serve>>['app']) => {
  await seedDemo(app.db, { totpSecret: SECRET, now: clock.now() });
  const inject: TInject = app.inject.bind(app);
  const json = async <T>(response: Awaited<ReturnType<TInject>>) =>
    (JSON.parse(response.body) as { data: T }).data;
  const first = await json<{ access_token: string; refresh_token: string }>(
    await inject({
      method: 'POST',
      url: '/api/v1/users/oauth/token',
      payload: { username: EMAIL, password: DEMO_PASSWORD, platform: PLATFORM },
    }),
  );
  const full = await json<{ access_token: string }>(
    await inject({
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: { authorization: `Bearer ${first.access_token}` },
      payload: { refresh_token: first.refresh_token, platform: PLATFORM, code: nextCode() },
    }),
  );
  const headers = { authorization: `Bearer ${full.access_token}` };
  const company = await json<{ uuid: string }>(await inject({ url: '/api/v1/company', headers }));
  const [room] = await json<{ uuid: string }[]>(
    await inject({ url: `/api/v1/companies/${company.uuid}/classrooms`, headers }),
  );
  const courses = `/api/v1/classrooms/${room!.uuid}/courses`;
  const existing = await json<unknown[]>(
    await inject({ url: `${courses}?paginate=false`, headers }),
  );
  for (let n = existing.length + 1; n <= COURSES; n += 1) {
    const created = await inject({
      method: 'POST',
      url: courses,
      headers,
      payload: { name: `Bench course ${n}`, description: `Course ${n} of the dashboard bench.` },
    });
    if (created.statusCode !== 201)
      throw new Error(`Creating a course answered ${created.statusCode}: ${created.body}`);
  }
};

// Runs in the page just before the code is submitted (so the times include the click): the
// first frame with a course card, and the first with all of them rendered and the last one on
// screen (it scrolls down as a user would, which makes the grid load its next pages).
const startProbe = (expected: number) => {
  const state = globalThis as unknown as {
    __submitAt?: number;
    __firstCardAt?: number;
    __allCardsAt?: number;
  };
  state.__submitAt = performance.now();
  const probe = () => {
    const cards = document.querySelectorAll('article.course-card');
    if (cards.length > 0 && state.__firstCardAt === undefined) {
      state.__firstCardAt = performance.now();
    }
    const last = cards[cards.length - 1];
    if (cards.length >= expected && last && last.getBoundingClientRect().top < window.innerHeight) {
      state.__allCardsAt = performance.now();
      return;
    }
    if (cards.length > 0) window.scrollTo(0, document.documentElement.scrollHeight);
    requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
};

type Run = {
  firstCardMs: number;
  allCardsMs: number;
  scripts: Map<string, number>;
};

const signInAndWait = async (browser: Browser, url: string): Promise<Run> => {
  const context = await browser.newContext({
    locale: 'en-GB',
    viewport: { width: 1366, height: 900 },
  });
  try {
    const page = await context.newPage();
    // tsx compiles with esbuild's keepNames: functions sent to the page call its __name helper.
    await page.addInitScript('globalThis.__name = (target) => target;');
    await page.goto(`${url}/login`);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    const scripts = new Map<string, number>();
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        (async () => {
          scripts.set(
            new URL(response.url()).pathname,
            gzipSync(await response.body(), { level: 9 }).length,
          );
        })(),
      );
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    // The user reads the authenticator meanwhile: the app preloads what the dashboard needs.
    await page.waitForLoadState('networkidle');
    await code.fill(nextCode());
    const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.evaluate(startProbe, COURSES);
    await page.getByRole('button', { name: 'Verify' }).click();
    const times = await page
      .waitForFunction(
        () => {
          const state = globalThis as unknown as {
            __submitAt?: number;
            __firstCardAt?: number;
            __allCardsAt?: number;
          };
          return state.__allCardsAt === undefined
            ? null
            : { submit: state.__submitAt!, first: state.__firstCardAt!, all: state.__allCardsAt };
        },
        undefined,
        { polling: 'raf', timeout: 60_000 },
      )
      .catch(async (error: unknown) => {
        const cards = await page.locator('article.course-card').count();
        await page.screenshot({ path: path.join(OUT, 'timeout.png') });
        throw new Error(
          `${cards} cards at ${page.url()} when the wait ended (see ${OUT}/timeout.png)`,
          {
            cause: error,
          },
        );
      });
    const { submit, first, all } = (await times.jsonValue())!;
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(path.join(OUT, 'dashboard.cpuprofile'), JSON.stringify(profile));
    }
    if (process.env.BENCH_TRACE) {
      const entries = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
          (entry) =>
            [
              entry.name.replace(/^https?:\/\/[^/]+/, ''),
              entry.startTime,
              entry.responseEnd,
            ] as const,
        ),
      );
      for (const [name, start, end] of entries) {
        if (end < submit) continue;
        process.stdout.write(
          `  ${(start - submit).toFixed(0).padStart(6)} → ${(end - submit).toFixed(0).padStart(6)} ms  ${name}\n`,
        );
      }
      process.stdout.write(
        `  first card ${(first - submit).toFixed(0)} ms, all ${(all - submit).toFixed(0)} ms\n`,
      );
    }
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    return { firstCardMs: first - submit, allCardsMs: all - submit, scripts };
  } finally {
    await context.close();
  }
};

/** Which sources each built chunk holds (Vite's manifest), to name what a page loaded. */
const chunkSources = (dist: string): Map<string, string[]> => {
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string; src?: string }>;
  const sources = new Map<string, string[]>();
  for (const [key, entry] of Object.entries(manifest)) {
    const list = sources.get(`/${entry.file}`) ?? [];
    list.push(entry.src ?? key);
    sources.set(`/${entry.file}`, list);
  }
  return sources;
};

const main = async () => {
  const loadBefore = loadavg()[0]!;
  cleanOut(OUT);
  const webDist = path.join(OUT, 'web-dist');
  const bareDist = path.join(OUT, 'bare-dist');
  process.stdout.write(
    'Building the web app (production, with a manifest) and the bare React page…\n',
  );
  await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: webDist, emptyOutDir: true, manifest: true },
  });
  await buildBare(bareDist);

  const web = await serve(webDist, { clock });
  await seed(web.app);
  const bare = await serve(bareDist);
  const browser = await launchChromium();
  try {
    // Warm-ups: not counted.
    await coldLoad(browser, `${bare.url}/`);
    await signInAndWait(browser, web.url);
    const bareTimes: number[] = [];
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bareTimes.push((await coldLoad(browser, `${bare.url}/`)).visibleMs);
      runs.push(await signInAndWait(browser, web.url));
    }
    const bareMs = median(bareTimes);
    const allMs = median(runs.map((run) => run.allCardsMs));
    const firstMs = median(runs.map((run) => run.firstCardMs));
    const ratio = allMs / bareMs;

    // What the sign-in screen needs is loaded before the password step; the rest is the dashboard's.
    const sources = chunkSources(webDist);
    const loaded = [...runs[0]!.scripts].sort((a, b) => b[1] - a[1]);
    process.stdout.write('\nScripts loaded from the password step to the dashboard (gzip -9):\n');
    for (const [file, gzip] of loaded) {
      process.stdout.write(
        `  ${kb(gzip).toFixed(1).padStart(7)} KB  ${file}  ${(sources.get(file) ?? []).join(', ')}\n`,
      );
    }
    const totalKb = kb(loaded.reduce((total, [, gzip]) => total + gzip, 0));
    const forbidden = loaded.flatMap(([file]) =>
      (sources.get(file) ?? []).filter((source) =>
        FORBIDDEN.some((pattern) => pattern.test(source)),
      ),
    );

    process.stdout.write(
      `\n${RUNS} runs, ${COURSES} courses, median times:\n` +
        `  bare React page, form visible (cold load):   ${bareMs.toFixed(0)} ms (${Math.min(...bareTimes).toFixed(0)}–${Math.max(...bareTimes).toFixed(0)})\n` +
        `  code submitted → first course card:          ${firstMs.toFixed(0)} ms\n` +
        `  code submitted → ${COURSES} course cards:           ${allMs.toFixed(0)} ms (${Math.min(...runs.map((r) => r.allCardsMs)).toFixed(0)}–${Math.max(...runs.map((r) => r.allCardsMs)).toFixed(0)})\n` +
        `  ratio:                                       ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)\n` +
        `  JS after the password step:                  ${totalKb.toFixed(1)} KB gzip in ${loaded.length} scripts\n`,
    );
    const ok = ratio <= TARGET_RATIO && forbidden.length === 0;
    process.stdout.write(
      `\n${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}  ${COURSES} cards in ${ratio.toFixed(2)}× the bare page's time (target ≤ ${TARGET_RATIO}×)\n` +
        `${forbidden.length === 0 ? 'PASS' : 'FAIL'}  no chart, wizard or learners chunk loaded${forbidden.length ? `: ${forbidden.join(', ')}` : ''}\n` +
        `\nMachine: ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after.\n`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await browser.close();
    await web.close();
    await bare.close();
  }
};

await main();
