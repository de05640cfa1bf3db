import { readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildTestApp, createSignedInUser } from '../helper.ts';

// Issue 11 (1, 4): uploads that a hostile or broken client sends over a real socket. A body that
// never closes its boundary, a multipart type without a boundary, a client that hangs up or goes
// silent: each is answered at once in the product's error shape (or, for the silent client,
// after the idle timeout), and no partial file or open file handle stays behind.

type Raw = { status: number; body: string };

const TRUNCATED =
  '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc';

const filesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};

// Files this process holds open under the data dir (database connections and sockets come and
// go with the pool, so they are not counted). Only Linux has /proc; elsewhere the count is 0.
const openFilesUnder = (dir: string): number => {
  try {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return (
          target.startsWith(dir) && !target.endsWith('.sqlite') && !target.includes('.sqlite-')
        );
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
};

const waitFor = async (check: () => boolean, ms = 2000) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('hostile multipart uploads over a socket', async () => {
  const app = await buildTestApp({ uploadIdleTimeoutMs: 400 });
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  let port = 0;
  const openHandles = () => openFilesUnder(app.dataDir);

  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.server.closeAllConnections());

  /** Sends a request as raw bytes; `hangUp` closes the socket right after, `timeoutMs` gives up. */
  const send = (
    url: string,
    contentType: string,
    body: string,
    { hangUp = false, timeoutMs = 5000 } = {},
  ): Promise<Raw | null> =>
    new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let data = '';
      const finish = (result: Raw | null) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish(null), timeoutMs);
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
        const end = data.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(data)?.[1];
        if (end >= 0 && length && data.length >= end + 4 + Number(length)) {
          finish({ status: Number(data.slice(9, 12)), body: data.slice(end + 4) });
        }
      });
      socket.on('error', () => finish(null));
      socket.write(
        `POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${headers.authorization}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body) + (hangUp ? 100 : 0)}\r\n\r\n${body}`,
      );
      if (hangUp) setTimeout(() => finish(null), 100);
    });

  const routes = () => [
    ['/api/v1/learners/imports', 'file'],
    [`/api/v1/classrooms/${classroom}/courses`, 'image'],
    [`/api/v1/classrooms/${classroom}/courses/import`, 'file'],
  ];

  it.each([
    ['never closes its boundary', 'multipart/form-data; boundary=xx', TRUNCATED],
    ['has no boundary', 'multipart/form-data', TRUNCATED],
    ['has a broken part header', 'multipart/form-data; boundary=xx', '--xx\r\nbroken\r\n\r\n'],
  ])('answers 400 at once to a body that %s, on every upload route', async (_, type, body) => {
    for (const [url, field] of routes()) {
      const answer = await send(url!, type, body.replace('"file"', `"${field}"`));
      expect({ url, status: answer?.status, body: JSON.parse(answer?.body ?? 'null') }).toEqual({
        url,
        status: 400,
        body: { error: { status: 400, code: 'BAD_REQUEST', message: MESSAGES.uploadMalformed } },
      });
    }
    expect(filesIn(path.join(app.dataDir, 'imports'))).toEqual([]);
    expect(filesIn(path.join(app.dataDir, 'tmp'))).toEqual([]);
  });

  it('answers 20 truncated imports and keeps no file or handle open', async () => {
    const before = openHandles();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send('/api/v1/learners/imports', 'multipart/form-data; boundary=xx', TRUNCATED),
      ),
    );
    expect(answers.map((answer) => answer?.status)).toEqual(Array(20).fill(400));
    expect(filesIn(path.join(app.dataDir, 'imports'))).toEqual([]);
    await waitFor(() => openHandles() <= before);
    expect(openHandles()).toBeLessThanOrEqual(before);
  });

  it('removes the partial file of a client that hangs up mid-upload', async () => {
    const before = openHandles();
    for (const [url, field] of routes()) {
      expect(
        await send(
          url!,
          'multipart/form-data; boundary=xx',
          TRUNCATED.replace('"file"', `"${field}"`),
          {
            hangUp: true,
          },
        ),
      ).toBeNull();
    }
    await waitFor(
      () => filesIn(path.join(app.dataDir, 'imports')).length === 0 && openHandles() <= before,
    );
    expect(filesIn(path.join(app.dataDir, 'imports'))).toEqual([]);
    expect(filesIn(path.join(app.dataDir, 'tmp'))).toEqual([]);
    expect(openHandles()).toBeLessThanOrEqual(before);
  });

  it('answers 408 to a client that goes silent mid-upload, and removes its partial file', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
        if (data.includes('}}')) resolve(data);
      });
    });
    socket.write(
      `POST /api/v1/learners/imports HTTP/1.1\r\nHost: x\r\nAuthorization: ${headers.authorization}\r\n` +
        `Content-Type: multipart/form-data; boundary=xx\r\nContent-Length: 100000\r\n\r\n${TRUNCATED}`,
    );
    const text = await answer;
    socket.destroy();
    expect(text.slice(9, 12)).toBe('408');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { status: 408, code: 'REQUEST_TIMEOUT', message: MESSAGES.uploadTimeout },
    });
    expect(filesIn(path.join(app.dataDir, 'imports'))).toEqual([]);
  });
});
