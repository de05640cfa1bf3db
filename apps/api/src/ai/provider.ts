import { openAsBlob } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import type { TAiModel } from '@ccp/schemas';

import { parseRetryAfterMs } from '../lib/retry-after.ts';
import type { TAiSettings } from './settings.ts';

// The client of an OpenAI-compatible API: chat completions answering JSON, and audio
// transcriptions. One retry after a 429 or 5xx, waiting what Retry-After asks (capped).

export type TAiFailure = 'server' | 'refused' | 'timeout' | 'network' | 'invalid';

/** A provider call that failed; `kind` says how, `status` is the provider's HTTP status. */
export class AiProviderError extends Error {
  readonly kind: TAiFailure;
  readonly status: number | undefined;

  constructor(kind: TAiFailure, message: string, status?: number) {
    super(message);
    this.name = 'AiProviderError';
    this.kind = kind;
    this.status = status;
  }
}

export type TChatRequest = { model: TAiModel; system: string; user: string };

export type TAiProvider = {
  /** One chat completion in JSON mode; answers the parsed JSON object. */
  chatJson: (request: TChatRequest) => Promise<unknown>;
  /** The text of an audio or video file. */
  transcribe: (file: { path: string; filename: string }) => Promise<string>;
};

const DEFAULT_RETRY_DELAY_MS = 1000;

/** Retry-After in milliseconds (lib/retry-after.ts); null when absent or unreadable. */
export const retryAfterMs = (header: string | null, now?: number): number | null =>
  parseRetryAfterMs(header, now);

const isRetryable = (status: number) => status === 429 || status >= 500;

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** JSON text, also when a model wraps it in a Markdown code fence. */
const parseJsonText = (text: string): unknown => {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  try {
    return JSON.parse(fenced?.[1] ?? text) as unknown;
  } catch {
    throw new AiProviderError('invalid', 'The AI answer is not JSON.');
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The provider client for the settings, or null when no API key is configured. */
export const createAiProvider = (settings: TAiSettings): TAiProvider | null => {
  const { apiKey } = settings;
  if (!apiKey) return null;
  const base = settings.baseUrl.replace(/\/+$/, '');

  const send = async (
    path: string,
    timeoutMs: number,
    body: () => Promise<{ body: string | FormData; contentType?: string }>,
  ): Promise<unknown> => {
    for (let attempt = 0; ; attempt += 1) {
      const payload = await body();
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            accept: 'application/json',
            ...(payload.contentType ? { 'content-type': payload.contentType } : {}),
          },
          body: payload.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (isTimeout(error)) throw new AiProviderError('timeout', 'The AI service timed out.');
        throw new AiProviderError('network', 'The AI service could not be reached.');
      }
      if (isRetryable(response.status) && attempt === 0) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? DEFAULT_RETRY_DELAY_MS;
        await response.body?.cancel();
        await sleep(Math.min(wait, settings.maxRetryDelayMs));
        continue;
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (isTimeout(error)) throw new AiProviderError('timeout', 'The AI service timed out.');
        throw new AiProviderError('network', 'The AI answer was cut off.');
      }
      if (!response.ok) {
        throw new AiProviderError(
          isRetryable(response.status) ? 'server' : 'refused',
          `The AI service answered HTTP ${response.status}.`,
          response.status,
        );
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new AiProviderError('invalid', 'The AI service answered something other than JSON.');
      }
    }
  };

  return {
    chatJson: async ({ model, system, user }) => {
      const answer = await send('/chat/completions', settings.timeoutMs, () =>
        Promise.resolve({
          contentType: 'application/json',
          body: JSON.stringify({
            model: settings.models[model],
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
            response_format: { type: 'json_object' },
          }),
        }),
      );
      const choices = isRecord(answer) ? answer.choices : undefined;
      const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
      const message = isRecord(first) ? first.message : undefined;
      const content = isRecord(message) ? message.content : undefined;
      if (typeof content !== 'string') {
        throw new AiProviderError('invalid', 'The AI answer has no message content.');
      }
      return parseJsonText(content);
    },
    transcribe: async ({ path: filePath, filename }) => {
      // The file streams from disk; a fresh form per attempt, as a body is read once.
      const answer = await send('/audio/transcriptions', settings.transcribeTimeoutMs, async () => {
        const form = new FormData();
        form.set('model', settings.transcribeModel);
        form.set('response_format', 'json');
        form.set('file', await openAsBlob(filePath), filename);
        return { body: form };
      });
      const text = isRecord(answer) ? answer.text : undefined;
      if (typeof text !== 'string') {
        throw new AiProviderError('invalid', 'The transcription has no text.');
      }
      return text;
    },
  };
};
