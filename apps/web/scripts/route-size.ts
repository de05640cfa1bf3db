import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { CHROMIUM, startServer } from './server.ts';

// What /login costs: the JS it loads (gzip, level 9) and the time until its form shows, on the
// built app served by the real server. `npx tsx apps/web/scripts/route-size.ts [path]`.

const route = process.argv[2] ?? '/login';

const main = async () => {
  const server = await startServer(18091);
  const browser = await chromium.launch(CHROMIUM);
  try {
    // A first visit warms the server up (file reads, compiled routes), as a running server would be.
    const warm = await browser.newContext({ baseURL: server.url });
    await (await warm.newPage()).goto(route, { waitUntil: 'networkidle' });
    await warm.close();

    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const scripts = new Map<string, number>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!url.pathname.endsWith('.js')) return;
      void response
        .body()
        .then((body) => scripts.set(url.pathname, gzipSync(body, { level: 9 }).length));
    });
    await page.goto(route);
    await page.getByRole('button').first().waitFor();
    // Since the navigation started, by the page's own clock.
    const visibleMs = Math.round(await page.evaluate(() => performance.now()));
    await page.waitForLoadState('networkidle');
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    for (const [name, size] of [...scripts].sort((a, b) => b[1] - a[1])) {
      console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${name}`);
    }
    console.log(
      `${route}: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzip, form visible after ${visibleMs} ms`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
};

await main();
