import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Serves the built web app (apps/web/dist) next to the API: files as they are, and index.html for
// any other page the browser asks for, so the app's own router can show it (or its 404 page).
// The files are listed once at start (one directory walk) and streamed with their precompressed
// twin when the browser accepts it; no static-files plugin: @fastify/static and the glob it
// walks the folder with were a fifth of the server's start-up (issue 18).

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

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

// Precompressed twins the build writes next to each asset, best first.
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

type WebFile = { file: string; encodings: Set<string> };

/** The built files by URL path (`/assets/index-B2kXVNjx.js`), with their precompressed twins. */
const listFiles = (root: string): Map<string, WebFile> => {
  const names = readdirSync(root, { recursive: true, encoding: 'utf8' }).map((name) =>
    name.split(path.sep).join('/'),
  );
  const present = new Set(names);
  const files = new Map<string, WebFile>();
  for (const name of names) {
    if (ENCODINGS.some((encoding) => name.endsWith(encoding.suffix))) continue;
    const file = path.join(root, name);
    const encodings = new Set(
      ENCODINGS.filter((encoding) => present.has(`${name}${encoding.suffix}`)).map(
        (encoding) => encoding.name,
      ),
    );
    files.set(`/${name}`, { file, encodings });
  }
  return files;
};

const pathOf = (url: string): string | null => {
  const mark = url.indexOf('?');
  try {
    return decodeURIComponent(mark < 0 ? url : url.slice(0, mark));
  } catch {
    return null;
  }
};

/**
 * Streams a built file: the precompressed twin the browser accepts, a weak ETag of its size and
 * time for revalidation (304), and the app's caching and CSP headers.
 */
const sendFile = async (
  root: string,
  found: WebFile,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const accepted = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  const encoding = ENCODINGS.find(
    (candidate) => found.encodings.has(candidate.name) && accepted.includes(candidate.name),
  );
  const file = encoding ? `${found.file}${encoding.suffix}` : found.file;
  let info;
  try {
    info = await stat(file);
  } catch {
    // Removed since the start (a rebuild under a running server).
    return reply.callNotFound();
  }
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  reply
    .header('Cache-Control', isHashedAsset(root, found.file) ? IMMUTABLE : REVALIDATE)
    .header('Content-Security-Policy', WEB_CSP)
    .header('ETag', etag)
    .header('Last-Modified', info.mtime.toUTCString())
    .header('Vary', 'Accept-Encoding')
    .type(CONTENT_TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream');
  if (encoding) reply.header('Content-Encoding', encoding.name);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.header('Content-Length', info.size).send(createReadStream(file));
};

export const webPlugin = async (app: FastifyInstance, { root }: WebPluginOptions) => {
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.info({ root }, 'web app not built: serving the API only');
    return;
  }
  const indexHtml = readFileSync(indexFile);
  const files = listFiles(root);

  const sendIndex = (reply: FastifyReply) =>
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', REVALIDATE)
      .header('Content-Security-Policy', WEB_CSP)
      .send(indexHtml);

  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  // `auth: false`: an unknown /api path must stay a 404, not become a 401 of this route.
  // A built file, else (for a browser) the app; API and upload paths never fall back to it.
  app.get('/*', { schema: { hide: true }, config: { auth: false } }, (request, reply) => {
    const found = isServerPath(request.url) ? undefined : files.get(pathOf(request.url) ?? '');
    if (found) return sendFile(root, found, request, reply);
    if (isServerPath(request.url) || !acceptsHtml(request)) return reply.callNotFound();
    return sendIndex(reply);
  });
};
