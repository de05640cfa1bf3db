import { cpus, loadavg } from 'node:os';
import path from 'node:path';

import type { Load } from './lib/pages.ts';
import {
  REPO,
  alternately,
  buildWebAndBare,
  coldLoad,
  cleanOut,
  kb,
  launchChromium,
  median,
  serveLoginPages,
} from './lib/pages.ts';

// What the login page costs (issues 4 and 32): the JS /login loads (gzip) and the time until its
// form shows, next to a bare React page with one input and a button, built and served the same
// way. Targets (issue 32; issue 4's were 280 KB and 1.5×): login JS ≤ 100 KB gzip; form visible
// in ≤ 1.3× the bare page's time. bench/login-trace.ts shows where the time goes.
// Run: npx tsx bench/login.ts  (BENCH_RUNS=7 cold loads per page, CHROMIUM_PATH=/usr/bin/chromium).
// BENCH_COMPARE=<dir>: also loads /login of another build of the web app (lib/pages.ts,
// serveLoginPages) in the same rounds.

const TARGET_JS_KB = 100;
const TARGET_TIME_RATIO = 1.3;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
// Inside the repository, so the bare page's imports resolve to the root node_modules.
const OUT = path.join(REPO, 'bench/out/login');

const sum = (load: Load, field: 'gzip' | 'wire') =>
  [...load.scripts.values()].reduce((total, sizes) => total + sizes[field], 0);

const main = async () => {
  const loadBefore = loadavg()[0]!;
  cleanOut(OUT);
  const served = await serveLoginPages(await buildWebAndBare(OUT));
  const browser = await launchChromium();
  try {
    const pages = [
      { name: 'bare React page', url: served.bareUrl, loads: [] as Load[] },
      { name: 'CCP /login', url: served.loginUrl, loads: [] as Load[] },
      ...(served.comparedUrl
        ? [{ name: '/login compared', url: served.comparedUrl, loads: [] as Load[] }]
        : []),
    ] as const;
    // A first visit warms the servers and the browser up; it is not counted.
    for (const target of pages) await coldLoad(browser, target.url);
    await alternately(pages, RUNS, async (target) => {
      target.loads.push(await coldLoad(browser, target.url));
    });

    const rows = pages.map((target) => {
      const first = target.loads[0]!;
      return {
        name: target.name,
        scripts: first.scripts.size,
        gzipKb: kb(sum(first, 'gzip')),
        wireKb: kb(sum(first, 'wire')),
        medianMs: median(target.loads.map((load) => load.visibleMs)),
        domReadyMs: median(target.loads.map((load) => load.domReadyMs)),
        minMs: Math.min(...target.loads.map((load) => load.visibleMs)),
        maxMs: Math.max(...target.loads.map((load) => load.visibleMs)),
      };
    });
    const [bareRow, loginRow, otherRow] = rows as [
      (typeof rows)[0],
      (typeof rows)[0],
      (typeof rows)[0] | undefined,
    ];

    process.stdout.write('\nScripts /login loads (gzip -9 of each response body):\n');
    const login = pages[1].loads[0]!;
    for (const [name, sizes] of [...login.scripts].sort((a, b) => b[1].gzip - a[1].gzip)) {
      process.stdout.write(`  ${kb(sizes.gzip).toFixed(1).padStart(7)} KB  ${name}\n`);
    }

    const line = (cells: string[]) =>
      `${cells[0]!.padEnd(18)}${cells
        .slice(1)
        .map((cell) => cell.padStart(14))
        .join('')}\n`;
    process.stdout.write(
      `\n${RUNS} cold loads each (fresh browser context), navigation start → "E-mail" field visible:\n\n`,
    );
    process.stdout.write(
      line(['', 'scripts', 'JS gzip', 'JS on wire', 'DCL (med)', 'visible (med)', 'min–max']),
    );
    for (const row of rows) {
      process.stdout.write(
        line([
          row.name,
          String(row.scripts),
          `${row.gzipKb.toFixed(1)} KB`,
          `${row.wireKb.toFixed(1)} KB`,
          `${row.domReadyMs.toFixed(0)} ms`,
          `${row.medianMs.toFixed(0)} ms`,
          `${row.minMs.toFixed(0)}–${row.maxMs.toFixed(0)} ms`,
        ]),
      );
    }
    const sizeRatio = loginRow.gzipKb / bareRow.gzipKb;
    const timeRatio = loginRow.medianMs / bareRow.medianMs;
    // Each round's loads met the same machine: the median of their ratios moves less with the
    // load than the ratio of the medians (the verdict's).
    const pairedTo = (of: Load[], to: Load[]) =>
      median(of.map((load, run) => load.visibleMs / to[run]!.visibleMs));
    const paired = pairedTo(pages[1].loads, pages[0].loads);
    process.stdout.write(
      line(['ratio', '', `${sizeRatio.toFixed(2)}×`, '', '', `${timeRatio.toFixed(2)}×`, '']) +
        line(['paired ratio', '', '', '', '', `${paired.toFixed(2)}×`, '']),
    );
    if (otherRow && pages[2]) {
      const otherPaired = pairedTo(pages[2].loads, pages[0].loads);
      const change = pairedTo(pages[1].loads, pages[2].loads);
      process.stdout.write(
        line([
          'compared: ratio',
          '',
          '',
          '',
          '',
          `${(otherRow.medianMs / bareRow.medianMs).toFixed(2)}×`,
          '',
        ]) +
          line(['compared: paired', '', '', '', '', `${otherPaired.toFixed(2)}×`, '']) +
          line(['this / compared', '', '', '', '', `${change.toFixed(2)}×`, '']),
      );
    }

    const jsOk = loginRow.gzipKb <= TARGET_JS_KB;
    const timeOk = timeRatio <= TARGET_TIME_RATIO;
    process.stdout.write(
      `\n${jsOk ? 'PASS' : 'FAIL'}  login JS ${loginRow.gzipKb.toFixed(1)} KB gzip (target ≤ ${TARGET_JS_KB} KB)\n` +
        `${timeOk ? 'PASS' : 'FAIL'}  form visible in ${timeRatio.toFixed(2)}× the bare page's time (target ≤ ${TARGET_TIME_RATIO}×)\n`,
    );
    process.stdout.write(
      `\nMachine: ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after.\n`,
    );
    if (!jsOk || !timeOk) process.exitCode = 1;
  } finally {
    await browser.close();
    await served.close();
  }
};

await main();
