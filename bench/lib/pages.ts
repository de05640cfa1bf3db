import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import type { Browser, Page, Response } from 'playwright-core';
import { build } from 'vite';

import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@ccp/schemas';

import { buildApp } from '../../apps/api/src/app.ts';
import type { AppOptions } from '../../apps/api/src/app.ts';

// What the browser benches share: the production web app and a bare React page (one input and a
// button) built with the same Vite, served by the real server, and loaded in headless Chromium.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const WEB = path.join(REPO, 'apps/web');

export const BARE_HTML = `<!doctype html>
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

export const BARE_MAIN = `import { StrictMode } from 'react';
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
export const precompress = (dir: string) => {
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

/** The production web app into `outDir`. */
export const buildWeb = async (outDir: string) => {
  await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
};

/** The bare React page into `outDir` (its sources beside it, so imports resolve). */
export const buildBare = async (outDir: string) => {
  const root = path.join(path.dirname(outDir), 'bare-src');
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

/** The production web app and the bare React page, into `out`/web-dist and `out`/bare-dist. */
export const buildWebAndBare = async (out: string) => {
  const webDist = path.join(out, 'web-dist');
  const bareDist = path.join(out, 'bare-dist');
  process.stdout.write('Building the web app (production) and the bare React page…\n');
  await buildWeb(webDist);
  await buildBare(bareDist);
  return { webDist, bareDist };
};

/** Runs `load` on each target `runs` times, the order alternating so both meet the same load. */
export const alternately = async <T>(
  targets: readonly T[],
  runs: number,
  load: (target: T) => Promise<void>,
) => {
  for (let run = 0; run < runs; run += 1) {
    for (const target of run % 2 ? [...targets].reverse() : targets) await load(target);
  }
};

/** The real server (API + static files of `webDist`) on a free port, on a fresh SQLite file. */
export const serve = async (webDist: string, options: Partial<AppOptions> = {}) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-web-'));
  const app = await buildApp({
    database: { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') },
    dataDir,
    webDist,
    logger: false,
    ...options,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no port.');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * What the login benches load (bench/login.ts, bench/login-trace.ts), each served by the real
 * server: the bare React page, this build's /login, and with BENCH_COMPARE=<dir> (`vite build
 * --outDir <dir>` of an older commit) that build's /login, loaded in the same rounds so that a
 * before/after meets the same load.
 */
export const serveLoginPages = async ({
  webDist,
  bareDist,
}: {
  webDist: string;
  bareDist: string;
}) => {
  const compare = process.env.BENCH_COMPARE;
  const web = await serve(webDist);
  const bare = await serve(bareDist);
  const compared = compare ? await serve(path.resolve(compare)) : null;
  return {
    bareUrl: `${bare.url}/`,
    loginUrl: `${web.url}/login`,
    comparedUrl: compared ? `${compared.url}/login` : null,
    close: async () => {
      await web.close();
      await bare.close();
      await compared?.close();
    },
  };
};

/**
 * A browser signed in as the web app leaves it (issue 30): the refresh token in the server's
 * HttpOnly cookie and the "maybe signed in" flag. The app's first load trades the cookie for an
 * access token (part of a signed-in load's cost) and spends it: one sign-in per context.
 */
export const signedInStorage = (origin: string, refreshToken: string) => ({
  cookies: [
    {
      name: REFRESH_COOKIE_NAME,
      value: refreshToken,
      domain: new URL(origin).hostname,
      path: REFRESH_COOKIE_PATH,
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Strict' as const,
    },
  ],
  origins: [{ origin, localStorage: [{ name: 'ccp.signed-in', value: '1' }] }],
});

// Runs in the page from its first script on: the time (since navigation start) of the first
// frame where the "E-mail" field is visible as Playwright means it (a box, not visibility:hidden),
// also as a user-timing mark, so a performance trace shows the moment (bench/login-trace.ts).
export const VISIBILITY_PROBE = `(() => {
  const probe = () => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === 'E-mail');
    const input = label && (label.control ?? document.getElementById(label.htmlFor));
    if (input) {
      const box = input.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && getComputedStyle(input).visibility !== 'hidden') {
        window.__formVisibleAt = performance.now();
        performance.mark('ccp-form-visible');
        return;
      }
    }
    requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
})();`;

export const launchChromium = () =>
  chromium.launch({
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

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const kb = (bytes: number) => bytes / 1024;

export const cleanOut = (dir: string) => rmSync(dir, { recursive: true, force: true });

export type Load = {
  visibleMs: number;
  /** When the module scripts had run (DOMContentLoaded), since navigation start. */
  domReadyMs: number;
  scripts: Map<string, { gzip: number; wire: number }>;
};

/** Opens `url` in `page` (with VISIBILITY_PROBE): ms from navigation start to the form showing. */
export const openUntilFormVisible = async (page: Page, url: string) => {
  await page.goto(url, { waitUntil: 'commit' });
  // Functions, not strings: the app's CSP forbids eval. (bench/ compiles without DOM types.)
  const visible = await page.waitForFunction(
    () => (globalThis as { __formVisibleAt?: number }).__formVisibleAt,
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  return Number(await visible.jsonValue());
};

/** One cold load: a fresh context (empty cache), until the form shows and the network is idle. */
export const coldLoad = async (browser: Browser, url: string): Promise<Load> => {
  const context = await browser.newContext({ locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.addInitScript(VISIBILITY_PROBE);
    // Only noted during the load: reading and compressing each body as it arrived (gzip -9 of
    // 300 KB) took the CPU of this process, which also serves the page, while the load being
    // timed still waited for its other files (issue 32).
    const responses: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') responses.push(response);
    });
    const visibleMs = await openUntilFormVisible(page, url);
    // Whatever the route loads after the first paint counts too.
    await page.waitForLoadState('networkidle');
    const scripts: Load['scripts'] = new Map();
    for (const response of responses) {
      const body = await response.body();
      const sizes = await response.request().sizes();
      scripts.set(new URL(response.url()).pathname, {
        gzip: gzipSync(body, { level: 9 }).length,
        wire: sizes.responseBodySize,
      });
    }
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
