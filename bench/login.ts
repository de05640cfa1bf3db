import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { build } from 'vite';

import { buildApp } from '../apps/api/src/app.ts';

// What the login page costs (issue 4): the JS /login loads (gzip) and the time until its form
// shows, next to a bare React page with one input and a button, built and served the same way.
// Targets: login JS ≤ 280 KB gzip; form visible in ≤ 1.5× the bare page's time.
// Run: npx tsx bench/login.ts  (BENCH_RUNS=7 cold loads per page, CHROMIUM_PATH=/usr/bin/chromium).

const TARGET_JS_KB = 280;
const TARGET_TIME_RATIO = 1.5;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const WEB = path.join(REPO, 'apps/web');
// Inside the repository, so the bare page's imports resolve to the root node_modules.
const OUT = path.join(REPO, 'bench/out/login');

const BARE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Bare</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.tsx"></script>
  </body>
</html>
`;

const BARE_MAIN = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const Form = () => (
  <form onSubmit={(event) => event.preventDefault()}>
    <label htmlFor="email">E-mail</label>
    <input id="email" type="email" autoComplete="username" />
    <button type="submit">Sign in</button>
  </form>
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Form />
  </StrictMode>,
);
`;

/** The .gz/.br files the web build writes next to each asset (apps/web/vite.config.ts). */
const precompress = (dir: string) => {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    if (content.length < 1024) continue;
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
};

const buildWeb = async (outDir: string) => {
  await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
};

const buildBare = async (outDir: string) => {
  const root = path.join(OUT, 'bare-src');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'index.html'), BARE_HTML);
  writeFileSync(path.join(root, 'main.tsx'), BARE_MAIN);
  await build({
    root,
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  precompress(outDir);
};

/** The real server (API + static files of `webDist`) on a free port. */
const serve = async (webDist: string) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-login-'));
  const app = await buildApp({
    database: { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') },
    dataDir,
    webDist,
    logger: false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no port.');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

// Runs in the page from its first script on: the time (since navigation start) of the first
// frame where the "E-mail" field is visible as Playwright means it (a box, not visibility:hidden).
const VISIBILITY_PROBE = `(() => {
  const probe = () => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === 'E-mail');
    const input = label && (label.control ?? document.getElementById(label.htmlFor));
    if (input) {
      const box = input.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && getComputedStyle(input).visibility !== 'hidden') {
        window.__formVisibleAt = performance.now();
        return;
      }
    }
    requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
})();`;

type Load = {
  visibleMs: number;
  /** When the module scripts had run (DOMContentLoaded), since navigation start. */
  domReadyMs: number;
  scripts: Map<string, { gzip: number; wire: number }>;
};

/** One cold load: a fresh context (empty cache), until the form shows and the network is idle. */
const coldLoad = async (browser: Browser, url: string): Promise<Load> => {
  const context = await browser.newContext({ locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.addInitScript(VISIBILITY_PROBE);
    const pending: Promise<void>[] = [];
    const scripts: Load['scripts'] = new Map();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          scripts.set(new URL(response.url()).pathname, {
            gzip: gzipSync(body, { level: 9 }).length,
            wire: sizes.responseBodySize,
          });
        })(),
      );
    });
    await page.goto(url, { waitUntil: 'commit' });
    // Functions, not strings: the app's CSP forbids eval. (bench/ compiles without DOM types.)
    const visible = await page.waitForFunction(
      () => (globalThis as { __formVisibleAt?: number }).__formVisibleAt,
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const visibleMs = Number(await visible.jsonValue());
    // Whatever the route loads after the first paint counts too.
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    const domReadyMs = await page.evaluate(() => {
      type TTimings = { domContentLoadedEventEnd?: number };
      const { performance } = globalThis as unknown as {
        performance: { getEntriesByType: (type: string) => TTimings[] };
      };
      return performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? Number.NaN;
    });
    return { visibleMs, domReadyMs, scripts };
  } finally {
    await context.close();
  }
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const kb = (bytes: number) => bytes / 1024;
const sum = (load: Load, field: 'gzip' | 'wire') =>
  [...load.scripts.values()].reduce((total, sizes) => total + sizes[field], 0);

const main = async () => {
  const loadBefore = loadavg()[0]!;
  rmSync(OUT, { recursive: true, force: true });
  const webDist = path.join(OUT, 'web-dist');
  const bareDist = path.join(OUT, 'bare-dist');
  process.stdout.write('Building the web app (production) and the bare React page…\n');
  await buildWeb(webDist);
  await buildBare(bareDist);

  const web = await serve(webDist);
  const bare = await serve(bareDist);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const pages = [
      { name: 'bare React page', url: `${bare.url}/`, loads: [] as Load[] },
      { name: 'CCP /login', url: `${web.url}/login`, loads: [] as Load[] },
    ] as const;
    // A first visit warms the servers and the browser up; it is not counted.
    for (const target of pages) await coldLoad(browser, target.url);
    for (let run = 0; run < RUNS; run += 1) {
      // Alternate the order, so both pages meet the same machine load.
      for (const target of run % 2 ? [...pages].reverse() : pages) {
        target.loads.push(await coldLoad(browser, target.url));
      }
    }

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
    const [bareRow, loginRow] = rows as [(typeof rows)[0], (typeof rows)[0]];

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
    process.stdout.write(
      line(['ratio', '', `${sizeRatio.toFixed(2)}×`, '', '', `${timeRatio.toFixed(2)}×`, '']),
    );

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
    await web.close();
    await bare.close();
  }
};

await main();
