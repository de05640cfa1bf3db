import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Serves the built web app (apps/web/dist) next to the API: files as they are, and index.html for
// any other page the browser asks for, so the app's own router can show it (or its 404 page).

/**
 * The app's Content Security Policy: its own scripts only; antd writes its styles at run time
 * (inline <style>), and the 2FA QR code is a data: image.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names bundled files by content (assets/index-B2kXVNjx.js), so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Everything else (index.html, favicon) is checked with the server on every use.
const REVALIDATE = 'no-cache';

export type WebPluginOptions = {
  /** The directory of the built app; nothing is served when it has no index.html. */
  root: string;
};

const isHashedAsset = (root: string, file: string) =>
  path.relative(root, file).split(path.sep)[0] === 'assets';

const acceptsHtml = (request: FastifyRequest) =>
  (request.headers.accept ?? '').toLowerCase().includes('text/html');

// API and upload paths never fall back to the app: a missing one stays a JSON 404.
const isServerPath = (url: string) => /^\/(api|uploads)(\/|$|\?)/.test(url);

export const webPlugin = async (app: FastifyInstance, { root }: WebPluginOptions) => {
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.info({ root }, 'web app not built: serving the API only');
    return;
  }
  const indexHtml = readFileSync(indexFile);

  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file, found at start-up: no catch-all, so unknown paths reach the
    // SPA fallback below (and API 404s keep their JSON body).
    wildcard: false,
    index: false,
    decorateReply: false,
    cacheControl: false,
    // Serve the .br / .gz files the build writes next to each asset when the browser accepts them.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', isHashedAsset(root, file) ? IMMUTABLE : REVALIDATE);
      res.setHeader('Content-Security-Policy', WEB_CSP);
    },
  });

  const sendIndex = (reply: FastifyReply) =>
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', REVALIDATE)
      .header('Content-Security-Policy', WEB_CSP)
      .send(indexHtml);

  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  // `auth: false`: an unknown /api path must stay a 404, not become a 401 of this route.
  app.get('/*', { schema: { hide: true }, config: { auth: false } }, (request, reply) => {
    if (isServerPath(request.url) || !acceptsHtml(request)) return reply.callNotFound();
    return sendIndex(reply);
  });
};
