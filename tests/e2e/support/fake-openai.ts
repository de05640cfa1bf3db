import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local fake of an OpenAI-compatible API for the browser tests (POST /v1/chat/completions,
// bearer key checked, JSON mode). It answers the lesson translator (apps/api/src/ai/translate.ts)
// as a translator would: every item of `items`, in order, marked with the target language, HTML
// tags kept. A lesson whose texts hold one of the markers below makes it fail the way the spec's
// failure cases need: a server error, one text too few (the size mismatch of spec §8), or that
// text answered with nothing (spec §8's "Translation not found").

export const FAKE_AI_KEY = 'e2e-fake-openai-key';
export const FAIL_WITH_SERVER_ERROR = 'FAKE-AI-500';
export const FAIL_WITH_SIZE_MISMATCH = 'FAKE-AI-SIZE';
export const FAIL_WITH_MISSING_TEXT = 'FAKE-AI-EMPTY';

const TARGETS: Record<string, string> = { Italian: 'IT', German: 'DE', English: 'EN' };

/** The text as the fake translates it: "[IT] " before its first text, tags untouched. */
const translate = (text: string, tag: string): string => {
  const at = text.search(/(^|>)[^<]/);
  if (at < 0) return text;
  const start = text[at] === '>' ? at + 1 : at;
  return `${text.slice(0, start)}[${tag}] ${text.slice(start)}`;
};

const completion = (content: unknown) => ({
  id: 'chatcmpl-e2e',
  object: 'chat.completion',
  created: 0,
  model: 'fake',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: JSON.stringify(content) },
      finish_reason: 'stop',
    },
  ],
});

export const startFakeOpenAi = async (): Promise<{ baseUrl: string; close: () => void }> => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${FAKE_AI_KEY}`) {
        send(401, {
          error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' },
        });
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        send(404, { error: { message: 'Unknown path.' } });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: { role: string; content: string }[];
      };
      const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
      const user = body.messages.find((message) => message.role === 'user')?.content ?? '{}';
      const into = /into (\w+)\./.exec(system)?.[1] ?? 'Italian';
      const items = (JSON.parse(user) as { items?: string[] }).items;
      if (!Array.isArray(items)) {
        send(200, completion({ processed: 'ok' }));
        return;
      }
      if (items.some((item) => item.includes(FAIL_WITH_SERVER_ERROR))) {
        send(500, { error: { message: 'The server had an error.', type: 'server_error' } });
        return;
      }
      const translated = items.map((item) =>
        item.includes(FAIL_WITH_MISSING_TEXT) ? '' : translate(item, TARGETS[into] ?? into),
      );
      if (items.some((item) => item.includes(FAIL_WITH_SIZE_MISMATCH))) translated.pop();
      send(200, completion({ items: translated }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => server.close() };
};
