import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Browser } from 'playwright-core';

import {
  REPO,
  VISIBILITY_PROBE,
  alternately,
  buildWebAndBare,
  cleanOut,
  launchChromium,
  median,
  openUntilFormVisible,
  serveLoginPages,
} from './lib/pages.ts';

// Where the login page's time goes next to the bare React page's (issue 32): a Chromium
// performance trace of cold loads of each, the renderer's main thread between navigation start
// and the "E-mail" field showing, summed per trace event (self time, so nested events are not
// counted twice), and when each resource arrived. The targets are bench/login.ts's.
// Run: npx tsx bench/login-trace.ts  (BENCH_RUNS=5 traced loads per page, BENCH_TOP=25 rows).

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const OUT = path.join(REPO, 'bench/out/login-trace');
// BENCH_REUSE=1: trace the builds of the previous run (comparing a change built elsewhere).
const REUSE = process.env.BENCH_REUSE === '1';
// BENCH_COMPARE=<dir>: also traces /login of another build (lib/pages.ts, serveLoginPages) in the
// same rounds, as a third column.
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink',
  'blink.user_timing',
  'loading',
  'toplevel',
];

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs), where the trace has it. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; requestId?: string; frame?: string } };
};

type Profile = {
  visibleMs: number;
  busyMs: number;
  /** CPU time of the main thread's tasks in the window: steadier than wall time on a busy machine. */
  cpuMs: number;
  /** Self time per event name on the main thread, ms. */
  self: Map<string, number>;
  /** Resources: url → [request sent, finished] since navigation start, ms. */
  resources: Map<string, [number, number]>;
};

/** The renderer main thread of the page: the CrRendererMain thread that parsed its HTML. */
const mainThreadOf = (events: TraceEvent[], origin: string) => {
  const parse = events.find(
    (event) =>
      event.name === 'ParseHTML' &&
      (event.args as { beginData?: { url?: string } })?.beginData?.url?.startsWith(origin),
  );
  if (!parse) throw new Error(`No ParseHTML event of ${origin} in the trace.`);
  return { pid: parse.pid, tid: parse.tid };
};

/** Self time per name of complete events (X, or B/E pairs) on one thread within [from, to] µs. */
const selfTimes = (events: TraceEvent[], from: number, to: number) => {
  const spans = events
    .filter((event) => event.ph === 'X' && event.dur !== undefined)
    .map((event) => ({ name: event.name, start: event.ts, end: event.ts + event.dur! }))
    .filter((span) => span.end > from && span.start < to)
    .map((span) => ({ ...span, start: Math.max(span.start, from), end: Math.min(span.end, to) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const self = new Map<string, number>();
  const stack: { name: string; end: number; children: number; start: number }[] = [];
  let busy = 0;
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      const own = done.end - done.start - done.children;
      self.set(done.name, (self.get(done.name) ?? 0) + own);
      const parent = stack.at(-1);
      if (parent) parent.children += done.end - done.start;
      else busy += done.end - done.start;
    }
  };
  for (const span of spans) {
    close(span.start);
    // Clip a child that outlives its parent (rounding in the trace).
    const parent = stack.at(-1);
    const end = parent ? Math.min(span.end, parent.end) : span.end;
    stack.push({ name: span.name, start: span.start, end, children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return { self, busy };
};

const tracedLoad = async (browser: Browser, url: string): Promise<Profile> => {
  const context = await browser.newContext({ locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.addInitScript(VISIBILITY_PROBE);
    await browser.startTracing(page, { categories: CATEGORIES });
    const visibleMs = await openUntilFormVisible(page, url);
    await page.waitForLoadState('networkidle');
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    const events = trace.traceEvents;
    const origin = new URL(url).origin;
    const main = mainThreadOf(events, origin);
    const onMain = events.filter((event) => event.pid === main.pid && event.tid === main.tid);
    // The probe's mark is the end; navigation start is its page's time origin, visibleMs before.
    const mark = events.find(
      (event) => event.name === 'ccp-form-visible' && event.pid === main.pid,
    );
    if (!mark) throw new Error('No ccp-form-visible mark in the trace.');
    const end = mark.ts;
    const start = end - visibleMs * 1000;
    const { self, busy } = selfTimes(onMain, start, end);
    const cpu = onMain
      .filter((event) => event.name === 'RunTask' && event.ts >= start && event.ts < end)
      .reduce((total, event) => total + (event.tdur ?? 0), 0);
    const resources = new Map<string, [number, number]>();
    const urls = new Map<string, string>();
    for (const event of events) {
      const data = event.args?.data;
      if (!data?.requestId) continue;
      if (event.name === 'ResourceSendRequest' && data.url?.startsWith(origin)) {
        urls.set(data.requestId, new URL(data.url).pathname);
        resources.set(new URL(data.url).pathname, [(event.ts - start) / 1000, Number.NaN]);
      }
      if (event.name === 'ResourceFinish' && urls.has(data.requestId)) {
        const timing = resources.get(urls.get(data.requestId)!);
        if (timing) timing[1] = (event.ts - start) / 1000;
      }
    }
    const ms = new Map([...self].map(([name, us]) => [name, us / 1000]));
    return { visibleMs, busyMs: busy / 1000, cpuMs: cpu / 1000, self: ms, resources };
  } finally {
    await context.close();
  }
};

// Now and then a trace lacks the page's ParseHTML event (seen at loads 0.4–6, either page):
// that load is taken again, up to three times.
const tracedOnce = async (browser: Browser, url: string): Promise<Profile> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await tracedLoad(browser, url);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
};

const main = async () => {
  const existing = { webDist: path.join(OUT, 'web-dist'), bareDist: path.join(OUT, 'bare-dist') };
  if (!REUSE || !existsSync(existing.webDist)) cleanOut(OUT);
  const { webDist, bareDist } =
    REUSE && existsSync(existing.webDist) ? existing : await buildWebAndBare(OUT);
  const served = await serveLoginPages({ webDist, bareDist });
  const browser = await launchChromium();
  try {
    const pages = [
      { name: 'bare', url: served.bareUrl, runs: [] as Profile[] },
      { name: 'login', url: served.loginUrl, runs: [] as Profile[] },
      ...(served.comparedUrl
        ? [{ name: 'compared', url: served.comparedUrl, runs: [] as Profile[] }]
        : []),
    ];
    for (const target of pages) await tracedOnce(browser, target.url);
    await alternately(pages, RUNS, async (target) => {
      target.runs.push(await tracedOnce(browser, target.url));
    });
    const med = (runs: Profile[], pick: (run: Profile) => number) => median(runs.map(pick));
    const line = (label: string, values: number[]) =>
      `${label.slice(0, 33).padEnd(34)}${values.map((ms) => ms.toFixed(1).padStart(9)).join('')}\n`;
    const header = (label: string) =>
      `${label.padEnd(34)}${pages.map((target) => target.name.padStart(9)).join('')}\n`;
    const both = (label: string, pick: (run: Profile) => number) =>
      line(
        label,
        pages.map((target) => med(target.runs, pick)),
      );
    process.stdout.write(
      `\n${RUNS} traced cold loads each, navigation start → form visible (medians, ms):\n\n` +
        header('') +
        both('visible', (run) => run.visibleMs) +
        both('main thread busy (wall)', (run) => run.busyMs) +
        both('main thread CPU', (run) => run.cpuMs) +
        '\n',
    );
    const names = new Set(
      pages.flatMap((target) => target.runs.flatMap((run) => [...run.self.keys()])),
    );
    const rows = [...names]
      .map((name) => ({
        name,
        values: pages.map((target) => med(target.runs, (run) => run.self.get(name) ?? 0)),
      }))
      .sort((a, b) => Math.max(...b.values) - Math.max(...a.values))
      .slice(0, TOP);
    process.stdout.write(header('self time by event'));
    for (const row of rows) process.stdout.write(line(row.name, row.values));
    for (const target of pages) {
      process.stdout.write(`\nResources of ${target.name} (median start–finish, ms):\n`);
      const paths = new Set(target.runs.flatMap((run) => [...run.resources.keys()]));
      for (const resource of paths) {
        const timings = target.runs.map((run) => run.resources.get(resource)).filter(Boolean);
        const start = median(timings.map((timing) => timing![0]));
        const end = median(timings.map((timing) => timing![1]));
        process.stdout.write(
          `  ${start.toFixed(1).padStart(7)}–${end.toFixed(1).padEnd(7)} ${resource}\n`,
        );
      }
    }
  } finally {
    await browser.close();
    await served.close();
  }
};

await main();
