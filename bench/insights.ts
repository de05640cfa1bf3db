import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';

import { createManualClock } from '../apps/api/src/lib/clock.ts';
import { issueTokenPair } from '../apps/api/src/lib/tokens.ts';
import { BENCH_NOW, buildDataset } from './lib/dataset.ts';
import { REPO, cleanOut, kb, launchChromium, median, serve, signedInStorage } from './lib/pages.ts';

// /insights on the analytics bench's data (issue 15): 100 000 learners, a delivered course they
// all took and an active course with 10 000 of them, two weeks in. Cold loads of
// /insights?course=<active> signed in: the time from navigation start to the metric cards with
// figures, and to the three charts drawn. Targets: cards ≤ 1.5 s, charts ≤ 2.5 s. Then the
// other routes are loaded to check that none of them fetches the charts chunk.
// Run: npx tsx bench/insights.ts   (BENCH_LEARNERS=100000 BENCH_RUNS=5)

const CARDS_TARGET_MS = 1500;
const CHARTS_TARGET_MS = 2500;
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = path.join(REPO, 'bench/out/insights');
const WEB = path.join(REPO, 'apps/web');
const CHARTS_SOURCE = 'src/pages/analytics/components/charts.tsx';
const TRACE = process.env.BENCH_TRACE === '1';
const OTHER_ROUTES = ['/dashboard', '/learners', '/courses/create', '/courses/import', '/faq'];

// Runs in the page from its first script: when the cards show figures, when the charts drew.
const PROBE = `(() => {
  const state = (window.__insights = {});
  const drawn = (kind) => {
    const canvas = document.querySelector('[data-chart="' + kind + '"] canvas');
    return canvas && canvas.width > 0 && canvas.getBoundingClientRect().height > 0;
  };
  const probe = () => {
    const zick = document.querySelector('[data-metric="zick_score"] .metric-value');
    if (state.cards === undefined && zick && /\\d/.test(zick.textContent)) state.cards = performance.now();
    if (state.charts === undefined && drawn('distribution') && drawn('channels') && drawn('status')) {
      state.charts = performance.now();
    }
    if (state.cards === undefined || state.charts === undefined) requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
})();`;

const contextWith = (browser: Browser, origin: string, refreshToken: string) =>
  browser.newContext({
    locale: 'en-GB',
    viewport: { width: 1366, height: 900 },
    storageState: signedInStorage(origin, refreshToken),
  });

const scriptsOf = (page: Page) => {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  return scripts;
};

// BENCH_TRACE=1: every script and API call of the load, from navigation start (ms).
const printWaterfall = async (page: Page) => {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => ({
      name: entry.name,
      start: entry.startTime,
      end: (entry as PerformanceResourceTiming).responseEnd,
    })),
  );
  const lines = entries
    .filter((entry) => !/\.(css|woff2?|png|svg)$/.test(new URL(entry.name).pathname))
    .map(
      (entry) =>
        `  ${entry.start.toFixed(0).padStart(5)}–${entry.end.toFixed(0).padEnd(5)} ${new URL(entry.name).pathname}${new URL(entry.name).search}`,
    );
  process.stdout.write(`${lines.join('\n')}\n\n`);
};

const main = async () => {
  const loadBefore = loadavg()[0]!;
  cleanOut(OUT);
  const webDist = path.join(OUT, 'web-dist');
  process.stdout.write('Building the web app (production, with a manifest)…\n');
  await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: webDist, emptyOutDir: true, manifest: true },
  });
  process.stdout.write(`Building ${LEARNERS.toLocaleString('en')} learners…\n`);
  const dataset = await buildDataset({
    learners: LEARNERS,
    courses: [
      {
        name: 'Delivered',
        status: 'delivered',
        startDate: '2026-10-01',
        lessonDays: 30,
        sentDays: 30,
      },
      {
        name: 'Active',
        status: 'active',
        startDate: '2026-11-09',
        lessonDays: 30,
        sentDays: 14,
        learners: 10_000,
      },
    ],
  });
  const [, active] = dataset.courseUuids;
  const clock = createManualClock(BENCH_NOW);
  const web = await serve(webDist, {
    database: { dialect: 'sqlite', file: dataset.file },
    dataDir: dataset.dataDir,
    clock,
  });
  // A sign-in per browser context: each load spends its refresh cookie.
  const signIn = async () =>
    (
      await issueTokenPair(
        { db: web.app.db, clock, settings: web.app.authSettings },
        dataset.userUuid,
        'full',
      )
    ).refresh_token;

  const manifest = JSON.parse(
    readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string; src?: string }>;
  const chartsFile = `/${Object.values(manifest).find((entry) => entry.src === CHARTS_SOURCE)!.file}`;
  const chartsGzipKb = kb(
    gzipSync(readFileSync(path.join(webDist, chartsFile)), { level: 9 }).length,
  );

  const browser = await launchChromium();
  try {
    const load = async () => {
      const context = await contextWith(browser, web.url, await signIn());
      try {
        const page = await context.newPage();
        await page.addInitScript(PROBE);
        await page.goto(`${web.url}/insights?course=${active}`, { waitUntil: 'commit' });
        const times = await page.waitForFunction(
          () => {
            const state = (globalThis as { __insights?: { cards?: number; charts?: number } })
              .__insights;
            return state?.cards !== undefined && state.charts !== undefined ? state : null;
          },
          undefined,
          { polling: 'raf', timeout: 60_000 },
        );
        if (TRACE) await printWaterfall(page);
        return (await times.jsonValue()) as { cards: number; charts: number };
      } finally {
        await context.close();
      }
    };
    await load(); // warm-up
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await load());
    const cardsMs = median(runs.map((run) => run.cards));
    const chartsMs = median(runs.map((run) => run.charts));

    // Every other route, cold: none may fetch the charts chunk.
    const leaks: string[] = [];
    for (const route of OTHER_ROUTES) {
      const context = await contextWith(browser, web.url, await signIn());
      const page = await context.newPage();
      const scripts = scriptsOf(page);
      await page.goto(`${web.url}${route}`);
      await page.waitForLoadState('networkidle');
      if (scripts.has(chartsFile)) leaks.push(route);
      await context.close();
    }

    const cardsOk = cardsMs <= CARDS_TARGET_MS;
    const chartsOk = chartsMs <= CHARTS_TARGET_MS;
    process.stdout.write(
      `\n${RUNS} cold loads of /insights (10 000 enrolled learners of ${LEARNERS.toLocaleString('en')}), median since navigation start:\n` +
        `  metric cards with figures: ${cardsMs.toFixed(0)} ms (${Math.min(...runs.map((r) => r.cards)).toFixed(0)}–${Math.max(...runs.map((r) => r.cards)).toFixed(0)})\n` +
        `  three charts drawn:        ${chartsMs.toFixed(0)} ms (${Math.min(...runs.map((r) => r.charts)).toFixed(0)}–${Math.max(...runs.map((r) => r.charts)).toFixed(0)})\n` +
        `  charts chunk:              ${chartsGzipKb.toFixed(1)} KB gzip (${chartsFile})\n\n` +
        `${cardsOk ? 'PASS' : 'FAIL'}  cards in ${cardsMs.toFixed(0)} ms (target ≤ ${CARDS_TARGET_MS} ms)\n` +
        `${chartsOk ? 'PASS' : 'FAIL'}  charts in ${chartsMs.toFixed(0)} ms (target ≤ ${CHARTS_TARGET_MS} ms)\n` +
        `${leaks.length === 0 ? 'PASS' : 'FAIL'}  no other route loads the charts chunk${leaks.length ? `: ${leaks.join(', ')}` : ` (${OTHER_ROUTES.join(', ')})`}\n` +
        `\nMachine: ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after.\n`,
    );
    if (!cardsOk || !chartsOk || leaks.length > 0) process.exitCode = 1;
  } finally {
    await browser.close();
    await web.close();
  }
};

await main();
