import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { AiProviderError, createAiProvider, retryAfterMs } from '../../src/ai/provider.ts';
import { aiSettingsFromEnv, resolveAiSettings } from '../../src/ai/settings.ts';
import { startFakeOpenAi } from '../fixtures/fake-openai.ts';

// The provider client against a local fake OpenAI-compatible server: the real HTTP code.

const failureOf = async (promise: Promise<unknown>): Promise<AiProviderError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AiProviderError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
};

describe('the AI provider client', async () => {
  const fake = await startFakeOpenAi();
  const settings = resolveAiSettings({
    apiKey: 'sk-test-123',
    baseUrl: fake.baseUrl,
    models: { 'gpt-3.5': 'fake-small', 'gpt-4': 'fake-large' },
    transcribeModel: 'fake-whisper',
    maxRetryDelayMs: 2000,
  });
  const provider = createAiProvider(settings)!;
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-ai-provider-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeEach(() => fake.reset());

  it('is not created without an API key', () => {
    expect(createAiProvider(resolveAiSettings({}))).toBeNull();
    expect(createAiProvider(resolveAiSettings({ apiKey: '' }))).toBeNull();
  });

  it('sends the mapped model, the bearer key, JSON mode and both prompts', async () => {
    fake.onChat(() => ({ content: { processed: 'Done.' } }));
    const answer = await provider.chatJson({ model: 'gpt-4', system: 'Be brief.', user: 'Hello' });
    expect(answer).toEqual({ processed: 'Done.' });
    const [request] = fake.chats();
    expect(request?.json?.model).toBe('fake-large');
    expect(request?.headers.authorization).toBe('Bearer sk-test-123');
    expect(request?.json?.response_format).toEqual({ type: 'json_object' });
    expect(request?.system).toBe('Be brief.');
    expect(request?.user).toBe('Hello');

    await provider.chatJson({ model: 'gpt-3.5', system: 's', user: 'u' });
    expect(fake.chats()[1]?.json?.model).toBe('fake-small');
  });

  it('reads JSON wrapped in a Markdown code fence', async () => {
    fake.onChat(() => ({ content: '```json\n{"processed": "fenced"}\n```' }));
    expect(await provider.chatJson({ model: 'gpt-4', system: 's', user: 'u' })).toEqual({
      processed: 'fenced',
    });
  });

  it('retries once after a 429, waiting what Retry-After asks', async () => {
    let calls = 0;
    fake.onChat(() =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } }
        : { content: { processed: 'second' } },
    );
    const started = Date.now();
    expect(await provider.chatJson({ model: 'gpt-4', system: 's', user: 'u' })).toEqual({
      processed: 'second',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.chats()).toHaveLength(2);
  });

  it('caps a long Retry-After at the configured maximum', async () => {
    const quick = createAiProvider({ ...settings, maxRetryDelayMs: 50 })!;
    let calls = 0;
    fake.onChat(() =>
      ++calls === 1
        ? { status: 503, headers: { 'retry-after': '120' } }
        : { content: { processed: 'ok' } },
    );
    const started = Date.now();
    await quick.chatJson({ model: 'gpt-4', system: 's', user: 'u' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.chats()).toHaveLength(2);
  });

  it('gives up after one retry on a second server error', async () => {
    const quick = createAiProvider({ ...settings, maxRetryDelayMs: 10 })!;
    fake.onChat(() => ({ status: 500, body: { error: 'boom' } }));
    const error = await failureOf(quick.chatJson({ model: 'gpt-4', system: 's', user: 'u' }));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
    expect(fake.chats()).toHaveLength(2);
  });

  it('does not retry a refusal (401)', async () => {
    fake.onChat(() => ({ status: 401, body: { error: { message: 'bad key' } } }));
    const error = await failureOf(provider.chatJson({ model: 'gpt-4', system: 's', user: 'u' }));
    expect(error.kind).toBe('refused');
    expect(error.status).toBe(401);
    expect(fake.chats()).toHaveLength(1);
  });

  it('times out a slow answer', async () => {
    const impatient = createAiProvider({ ...settings, timeoutMs: 100 })!;
    fake.onChat(() => ({ delayMs: 400, then: { content: { processed: 'late' } } }));
    const error = await failureOf(impatient.chatJson({ model: 'gpt-4', system: 's', user: 'u' }));
    expect(error.kind).toBe('timeout');
    expect(fake.chats()).toHaveLength(1);
  });

  it('refuses content that is not JSON, and an answer without content', async () => {
    fake.onChat(() => ({ content: 'Sure! Here are your lessons.' }));
    expect(
      (await failureOf(provider.chatJson({ model: 'gpt-4', system: 's', user: 'u' }))).kind,
    ).toBe('invalid');
    fake.onChat(() => ({ status: 200, body: { choices: [] } }));
    expect(
      (await failureOf(provider.chatJson({ model: 'gpt-4', system: 's', user: 'u' }))).kind,
    ).toBe('invalid');
  });

  it('names a server that cannot be reached as a network failure', async () => {
    const nowhere = createAiProvider({ ...settings, baseUrl: 'http://127.0.0.1:9/v1' })!;
    const error = await failureOf(nowhere.chatJson({ model: 'gpt-4', system: 's', user: 'u' }));
    expect(error.kind).toBe('network');
  });

  it('transcribes a file as multipart with the transcription model', async () => {
    const file = path.join(dir, 'talk.mp3');
    writeFileSync(file, 'ID3 not really audio');
    fake.onTranscription(() => ({ content: { text: 'Plants love light.' } }));
    expect(await provider.transcribe({ path: file, filename: 'talk.mp3' })).toBe(
      'Plants love light.',
    );
    const [request] = fake.requests;
    expect(request?.path).toBe('/v1/audio/transcriptions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-123');
    expect(request?.form).toMatchObject({ model: 'fake-whisper' });
    expect(request?.file).toEqual({ name: 'talk.mp3', size: 20, text: 'ID3 not really audio' });
  });

  it('sends the file again on the retry after a 429', async () => {
    const file = path.join(dir, 'again.wav');
    writeFileSync(file, 'RIFF....WAVE');
    const quick = createAiProvider({ ...settings, maxRetryDelayMs: 10 })!;
    let calls = 0;
    fake.onTranscription(() =>
      ++calls === 1 ? { status: 429 } : { content: { text: 'Second try.' } },
    );
    expect(await quick.transcribe({ path: file, filename: 'again.wav' })).toBe('Second try.');
    expect(fake.requests.map((request) => request.file?.size)).toEqual([12, 12]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0.5')).toBe(500);
    const now = Date.parse('2026-03-01T10:00:00Z');
    expect(retryAfterMs('Sun, 01 Mar 2026 10:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('aiSettingsFromEnv', () => {
  it('has no provider and the documented defaults without OPENAI_* variables', () => {
    expect(aiSettingsFromEnv({})).toMatchObject({
      apiKey: null,
      baseUrl: 'https://api.openai.com/v1',
      models: { 'gpt-3.5': 'gpt-3.5-turbo', 'gpt-4': 'gpt-4o' },
      transcribeModel: 'whisper-1',
      timeoutMs: 120_000,
    });
  });

  it('reads every OPENAI_* variable', () => {
    expect(
      aiSettingsFromEnv({
        OPENAI_API_KEY: ' sk-live ',
        OPENAI_BASE_URL: 'http://localhost:11434/v1/',
        OPENAI_MODEL_GPT35: 'llama3.1',
        OPENAI_MODEL_GPT4: 'qwen2.5:32b',
        OPENAI_TRANSCRIBE_MODEL: 'whisper-large-v3',
        OPENAI_TIMEOUT_SECONDS: '30',
        OPENAI_TRANSCRIBE_TIMEOUT_SECONDS: '900',
      }),
    ).toMatchObject({
      apiKey: 'sk-live',
      baseUrl: 'http://localhost:11434/v1',
      models: { 'gpt-3.5': 'llama3.1', 'gpt-4': 'qwen2.5:32b' },
      transcribeModel: 'whisper-large-v3',
      timeoutMs: 30_000,
      transcribeTimeoutMs: 900_000,
    });
  });

  it('stops start-up on a bad value, naming the variable', () => {
    expect(() => aiSettingsFromEnv({ OPENAI_BASE_URL: 'not a url' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => aiSettingsFromEnv({ OPENAI_TIMEOUT_SECONDS: '-1' })).toThrow(
      /OPENAI_TIMEOUT_SECONDS/,
    );
  });
});
