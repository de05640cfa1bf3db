import { AI_PROMPTS, MESSAGES, stripHtml } from '@ccp/schemas';
import { beforeEach, describe, expect, it } from 'vitest';

import { SECTIONS, sectionsAsText } from '../fixtures/ai.ts';
import { startFakeOpenAi } from '../fixtures/fake-openai.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// GET /api/v1/courses/helpers/prompts and POST /api/v1/courses/helpers/lessons (spec §7), with
// the offline helpers and with a fake OpenAI-compatible provider.

const CONTENT = sectionsAsText(SECTIONS.slice(0, 1));

describe('the AI writing helpers, offline', async () => {
  const app = await buildTestApp();
  const { headers } = await createSignedInUser(app, { plan: 'free' });

  it('lists the fixed prompts by id, and says the offline generator writes', async () => {
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/courses/helpers/prompts',
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({
      data: AI_PROMPTS.map(({ id, prompt }) => ({ id, prompt })),
      meta: { generator: 'offline' },
    });
    const prompts = response.json.data as { id: string }[];
    expect(prompts.map((prompt) => prompt.id)).toEqual([
      'lesson-title',
      'topic-intro',
      'topic-content',
      'summary',
      'quiz-question',
    ]);
  });

  it('needs a signed-in user', async () => {
    const response = await call(app, { method: 'GET', url: '/api/v1/courses/helpers/prompts' });
    expect(response.statusCode).toBe(401);
  });

  it('runs every prompt without promptId, each entry holding prompt, original and processed', async () => {
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { content: CONTENT, model: 'gpt-4' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.meta).toEqual({ generator: 'offline', model: 'gpt-4' });
    expect(Object.keys(response.json.data)).toEqual(AI_PROMPTS.map((prompt) => prompt.id));
    for (const prompt of AI_PROMPTS) {
      const entry = response.json.data[prompt.id];
      expect(entry.prompt).toBe(prompt.prompt);
      expect(entry.original).toBe(CONTENT);
      expect(entry.processed).not.toBe('');
      expect([...stripHtml(entry.processed)].length).toBeLessThanOrEqual(prompt.max);
    }
    expect(response.json.data['lesson-title'].processed).toBe('How plants make food');
  });

  it('runs one prompt with promptId', async () => {
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'quiz-question', content: CONTENT, model: 'gpt-3.5', language: 'it' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toEqual({
      'quiz-question': {
        prompt: AI_PROMPTS[4].prompt,
        original: CONTENT,
        processed:
          'Vero o falso? A single leaf can hold about 500000 chloroplasts in each square millimetre.',
      },
    });
  });

  it('answers 422 naming each invalid field', async () => {
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'poem', content: '   ', model: 'gpt-5' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: {
        promptId: [MESSAGES.aiPromptUnknown],
        content: [MESSAGES.aiContentRequired],
        model: [MESSAGES.aiModelInvalid],
      },
    });
  });

  it('refuses content over 20000 characters and accepts exactly 20000', async () => {
    const over = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'lesson-title', content: 'a'.repeat(20_001) },
    });
    expect(over.statusCode).toBe(422);
    expect(over.json.error.errors).toEqual({ content: [MESSAGES.aiContentMax] });
    const limit = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'lesson-title', content: 'a'.repeat(20_000) },
    });
    expect(limit.statusCode).toBe(200);
    expect([...limit.json.data['lesson-title'].processed].length).toBe(140);
  });
});

describe('the AI writing helpers, with a provider', async () => {
  const fake = await startFakeOpenAi();
  const app = await buildTestApp({
    ai: {
      apiKey: 'sk-helpers',
      baseUrl: fake.baseUrl,
      models: { 'gpt-3.5': 'small-model', 'gpt-4': 'large-model' },
      maxRetryDelayMs: 10,
    },
  });
  const { headers } = await createSignedInUser(app);

  beforeEach(() => fake.reset());

  it('asks the provider once per prompt with the mapped model and the content', async () => {
    fake.onChat(({ system }) => ({
      content: { processed: system.includes('HTML') ? '<p>Rewritten.</p>' : 'Short answer' },
    }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { content: CONTENT, model: 'gpt-4' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.meta).toEqual({ generator: 'openai', model: 'gpt-4' });
    expect(response.json.data['topic-content'].processed).toBe('<p>Rewritten.</p>');
    expect(response.json.data['lesson-title'].processed).toBe('Short answer');
    const chats = fake.chats();
    expect(chats).toHaveLength(AI_PROMPTS.length);
    for (const chat of chats) {
      expect(chat.json?.model).toBe('large-model');
      expect(chat.headers.authorization).toBe('Bearer sk-helpers');
      expect(chat.user).toBe(CONTENT);
    }
    expect(chats.map((chat) => chat.system).join('\n')).toContain(AI_PROMPTS[0].prompt);
  });

  it('holds a provider answer to the prompt limit and strips unsafe HTML', async () => {
    fake.onChat(({ system }) => ({
      content: {
        processed: system.includes('HTML')
          ? `<p onclick="x()">${'Word '.repeat(400)}</p><script>alert(1)</script>`
          : 'Title '.repeat(60),
      },
    }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { content: CONTENT, model: 'gpt-3.5' },
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json;
    expect([...data['lesson-title'].processed].length).toBeLessThanOrEqual(140);
    expect(data['topic-content'].processed).not.toMatch(/script|onclick/);
    expect([...stripHtml(data['topic-content'].processed)].length).toBeLessThanOrEqual(1200);
    expect(fake.chats()[0]?.json?.model).toBe('small-model');
  });

  it('answers 502 when the provider keeps failing', async () => {
    fake.onChat(() => ({ status: 500 }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'summary', content: CONTENT },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json.error).toEqual({
      status: 502,
      code: 'AI_PROVIDER_ERROR',
      message: MESSAGES.aiProviderFailed,
    });
    expect(fake.chats()).toHaveLength(2);
  });

  it('answers 502 pointing the creator to the administrator when the provider refuses the key', async () => {
    fake.onChat(() => ({ status: 401 }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'summary', content: CONTENT },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json.error.message).toBe(
      'The AI service refused the request (HTTP 401). Your administrator can check its connection.',
    );
  });

  it('answers 502 when the provider answers without the processed text', async () => {
    fake.onChat(() => ({ content: { answer: 'elsewhere' } }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/lessons',
      headers,
      payload: { promptId: 'summary', content: CONTENT },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json.error.message).toBe(MESSAGES.aiInvalidResponse);
  });
});

describe('the OpenAPI document', async () => {
  const app = await buildTestApp();

  it('documents the AI paths with their answers', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    const paths = response.json.paths as Record<string, Record<string, { responses?: object }>>;
    const expected: [string, string, string][] = [
      ['get', '/api/v1/courses/helpers/prompts', '200'],
      ['post', '/api/v1/courses/helpers/lessons', '200'],
      ['post', '/api/v1/classrooms/{classroomUuid}/courses/import', '202'],
      ['get', '/api/v1/classrooms/{classroomUuid}/courses/import/{jobUuid}', '200'],
      ['post', '/api/v1/classrooms/{classroomUuid}/courses/import/{jobUuid}/cancel', '200'],
      ['post', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/translate', '200'],
    ];
    for (const [method, path, status] of expected) {
      expect(paths[path]?.[method]?.responses, `${method} ${path}`).toHaveProperty(status);
    }
    const importBody = (paths['/api/v1/classrooms/{classroomUuid}/courses/import']?.post as any)
      .requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(importBody.properties)).toEqual(
      expect.arrayContaining(['name', 'description', 'language', 'number_of_lessons', 'file']),
    );
  });
});
