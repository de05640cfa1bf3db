import { UPLOAD_MAX_BYTES } from '@ccp/schemas';
import type { TAiModel } from '@ccp/schemas';

// The AI provider settings: any OpenAI-compatible service (OpenAI, Azure's compatible endpoint,
// a local server such as Ollama or vLLM). Without an API key the offline generator is used.

export type TAiSettings = {
  /** OPENAI_API_KEY; null: no provider, documents are turned into courses offline. */
  apiKey: string | null;
  /** OPENAI_BASE_URL, up to and including the version, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** The provider's model name for each of the two model choices of the form. */
  models: Record<TAiModel, string>;
  /** OPENAI_TRANSCRIBE_MODEL: the model of /audio/transcriptions. */
  transcribeModel: string;
  /** How long one chat completion may take. */
  timeoutMs: number;
  /** How long one transcription may take (a long video takes minutes). */
  transcribeTimeoutMs: number;
  /** The longest wait before the one retry after a 429 or 5xx, whatever Retry-After asks. */
  maxRetryDelayMs: number;
  /** The largest import file; spec §9 says 700 MB (tests lower it). */
  maxUploadBytes: number;
};

export const DEFAULT_AI_SETTINGS: TAiSettings = {
  apiKey: null,
  baseUrl: 'https://api.openai.com/v1',
  models: { 'gpt-3.5': 'gpt-3.5-turbo', 'gpt-4': 'gpt-4o' },
  transcribeModel: 'whisper-1',
  timeoutMs: 120_000,
  transcribeTimeoutMs: 600_000,
  maxRetryDelayMs: 10_000,
  maxUploadBytes: UPLOAD_MAX_BYTES,
};

/** What AppOptions.ai may set: any of the settings, the defaults filling the rest. */
export type TAiSettingsInput = Partial<Omit<TAiSettings, 'models'>> & {
  models?: Partial<TAiSettings['models']>;
};

/** The settings an override gives, the defaults filling the rest. */
export const resolveAiSettings = (override: TAiSettingsInput | undefined): TAiSettings => ({
  ...DEFAULT_AI_SETTINGS,
  ...override,
  models: { ...DEFAULT_AI_SETTINGS.models, ...override?.models },
});

const seconds = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new Error(`${name} must be a positive number of seconds, got "${value}"`);
  return Math.round(parsed * 1000);
};

const text = (value: string | undefined, fallback: string): string =>
  value !== undefined && value.trim() !== '' ? value.trim() : fallback;

/** The AI settings from OPENAI_* variables; a bad value stops start-up with a message naming it. */
export const aiSettingsFromEnv = (env: NodeJS.ProcessEnv): TAiSettings => {
  const baseUrl = text(env.OPENAI_BASE_URL, DEFAULT_AI_SETTINGS.baseUrl).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new Error(
      `OPENAI_BASE_URL must be a URL such as https://api.openai.com/v1, got "${baseUrl}"`,
    );
  }
  return {
    ...DEFAULT_AI_SETTINGS,
    apiKey: env.OPENAI_API_KEY?.trim() ? env.OPENAI_API_KEY.trim() : null,
    baseUrl,
    models: {
      'gpt-3.5': text(env.OPENAI_MODEL_GPT35, DEFAULT_AI_SETTINGS.models['gpt-3.5']),
      'gpt-4': text(env.OPENAI_MODEL_GPT4, DEFAULT_AI_SETTINGS.models['gpt-4']),
    },
    transcribeModel: text(env.OPENAI_TRANSCRIBE_MODEL, DEFAULT_AI_SETTINGS.transcribeModel),
    timeoutMs: seconds(
      env.OPENAI_TIMEOUT_SECONDS,
      DEFAULT_AI_SETTINGS.timeoutMs,
      'OPENAI_TIMEOUT_SECONDS',
    ),
    transcribeTimeoutMs: seconds(
      env.OPENAI_TRANSCRIBE_TIMEOUT_SECONDS,
      DEFAULT_AI_SETTINGS.transcribeTimeoutMs,
      'OPENAI_TRANSCRIBE_TIMEOUT_SECONDS',
    ),
  };
};
