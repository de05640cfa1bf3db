import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseLangOption, resolveLanguage } from './language.ts';
import { runInProcess } from './test-io.ts';

describe('the language of ccp', () => {
  it.each([
    [{ LANG: 'it_IT.UTF-8' }, 'it'],
    [{ LANG: 'it_IT.UTF-8', LC_ALL: 'de_DE.UTF-8' }, 'de'],
    [{ LANG: 'de_AT', LC_MESSAGES: 'it_CH' }, 'it'],
    [{ LANG: 'it_IT.UTF-8', LC_ALL: 'fr_FR.UTF-8' }, 'en'],
    [{ LANG: 'C.UTF-8' }, 'en'],
    [{ LANG: 'it', LC_ALL: '' }, 'it'],
    [{}, 'en'],
  ])('reads %j as %s', (env, lang) => {
    expect(resolveLanguage(undefined, { env })).toBe(lang);
  });

  it('lets --lang win over the environment', () => {
    expect(resolveLanguage('de', { env: { LC_ALL: 'it_IT.UTF-8' } })).toBe('de');
  });

  it('takes a language or a tag of one for --lang, and refuses others', () => {
    expect(parseLangOption('it-IT')).toBe('it');
    expect(parseLangOption('DE')).toBe('de');
    expect(() => parseLangOption('fr')).toThrow('Expected en, it or de.');
  });
});

// A stand-in API: it records the Accept-Language of each request and answers as told.
describe('ccp asks the API for its language and shows the answers in it', () => {
  const received: IncomingHttpHeaders[] = [];
  let answer: { status: number; body: unknown } = { status: 500, body: {} };
  const server = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    request.on('end', () => {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  const configDir = mkdtempSync(path.join(tmpdir(), 'ccp-lang-'));
  let env: Record<string, string> = {};

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    env = { CCP_API_URL: `http://127.0.0.1:${port}`, CCP_CONFIG_DIR: configDir };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(configDir, { recursive: true, force: true });
  });

  const login = (args: string[], extraEnv: Record<string, string> = {}) =>
    runInProcess(
      ['login', '--email', 'ada@example.com', '--password-stdin', '--otp', '123456', ...args],
      { env: { ...env, ...extraEnv }, stdin: 'secret\n' },
    );

  it('sends --lang as Accept-Language and says wrong credentials in it (exit 4)', async () => {
    answer = {
      status: 400,
      body: {
        error: {
          status: 400,
          code: 'INVALID_CREDENTIALS',
          message: "Le credenziali dell'utente non sono corrette.",
        },
      },
    };
    const result = await login(['--lang', 'it'], { LANG: 'de_DE.UTF-8' });
    expect(received.at(-1)?.['accept-language']).toBe('it');
    expect(result).toMatchObject({
      code: 4,
      stderr: "Le credenziali dell'utente non sono corrette.\n",
    });
  });

  it('takes the language from LANG, and says its own slow-down text in it', async () => {
    answer = {
      status: 429,
      body: { error: { status: 429, code: 'TOO_MANY_ATTEMPTS', message: 'Zu viele Versuche.' } },
    };
    const result = await login([], { LANG: 'de_DE.UTF-8' });
    expect(received.at(-1)?.['accept-language']).toBe('de');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Langsam! Zu viele Anfragen. Bitte warten Sie und versuchen Sie es erneut.\n',
    );
  });

  it('prints a server message as the server said it', async () => {
    answer = {
      status: 403,
      body: { error: { status: 403, code: 'FORBIDDEN', message: 'Non hai i permessi per farlo.' } },
    };
    const result = await login([], { LC_ALL: 'it_IT.UTF-8' });
    expect(received.at(-1)?.['accept-language']).toBe('it');
    expect(result.stderr).toBe('Non hai i permessi per farlo.\n');
  });

  it('asks for English without a language setting', async () => {
    answer = {
      status: 404,
      body: { error: { status: 404, code: 'NOT_FOUND', message: 'Not found.' } },
    };
    await login([]);
    expect(received.at(-1)?.['accept-language']).toBe('en');
  });
});
