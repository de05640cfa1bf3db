import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The plumbing the provider fakes share: a server on 127.0.0.1 on a free port, bodies read
// whole, JSON answers. No vitest import, so bench scripts run the same fakes.

export const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
};

export type Listening = { server: Server; baseUrl: string; close: () => Promise<void> };

/** Starts a handler on 127.0.0.1; a handler that throws answers 500 with the message. */
export const listen = async (
  handler: (
    request: IncomingMessage,
    response: ServerResponse,
    body: string,
  ) => Promise<void> | void,
): Promise<Listening> => {
  const server = createServer((request, response) => {
    readBody(request)
      .then((body) => handler(request, response, body))
      .catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      });
  });
  // As the providers do, connections are kept between requests (under a second, undici drops
  // each after one request); close() ends them.
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
