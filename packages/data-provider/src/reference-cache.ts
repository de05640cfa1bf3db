import type {
  TChannel,
  TCompany,
  TLanguage,
  TLocale,
  TSubscription,
  TTranslation,
} from '@ccp/schemas';

import type { HttpClient } from './http-client.ts';
import { cachedValue } from './utils/cached-value.ts';
import type { CachedValue } from './utils/cached-value.ts';

export type TReferenceKey = 'channels' | 'languages' | 'translations' | 'company' | 'subscription';

/**
 * Spec §9 gives the expiry values without a unit; they are hours. Languages and translations
 * change with a release, so 72 h costs nothing; 1 h for the company, its subscription and the
 * channels keeps a plan change (or a newly enabled channel) visible within the hour.
 */
export const REFERENCE_CACHE_TTL_HOURS: Readonly<Record<TReferenceKey, number>> = {
  channels: 1,
  languages: 72,
  translations: 72,
  company: 1,
  subscription: 1,
};

const HOUR_MS = 60 * 60 * 1000;

export type ReferenceCacheOptions = {
  /** Epoch ms; injectable so tests can move time. */
  now?: () => number;
  ttlHours?: Partial<Record<TReferenceKey, number>>;
};

/** Reference data every screen needs, fetched once per expiry period and shared by all callers. */
export type ReferenceCache = {
  channels: () => Promise<TChannel[]>;
  languages: () => Promise<TLanguage[]>;
  /** One locale's texts, or every locale's without an argument. */
  translations: (locale?: TLocale) => Promise<TTranslation[]>;
  company: () => Promise<TCompany>;
  subscription: () => Promise<TSubscription>;
  /** Forgets one kind (e.g. the subscription after a plan change) or everything. */
  invalidate: (key?: TReferenceKey) => void;
};

export const createReferenceCache = (
  client: HttpClient,
  { now = Date.now, ttlHours = {} }: ReferenceCacheOptions = {},
): ReferenceCache => {
  const ttlMs = (key: TReferenceKey) => (ttlHours[key] ?? REFERENCE_CACHE_TTL_HOURS[key]) * HOUR_MS;
  const data =
    <T>(path: string, query?: Record<string, string>) =>
    async () =>
      (await client.get<{ data: T }>(path, query ? { query } : {})).data;

  const channels = cachedValue(data<TChannel[]>('/api/v1/channels'), {
    ttlMs: ttlMs('channels'),
    now,
  });
  const languages = cachedValue(data<TLanguage[]>('/api/v1/languages'), {
    ttlMs: ttlMs('languages'),
    now,
  });
  const company = cachedValue(data<TCompany>('/api/v1/company'), { ttlMs: ttlMs('company'), now });
  const subscription = cachedValue(data<TSubscription>('/api/v1/users/me/subscriptions'), {
    ttlMs: ttlMs('subscription'),
    now,
  });
  const translations = new Map<TLocale | 'all', CachedValue<TTranslation[]>>();
  const translationsFor = (locale?: TLocale) => {
    const key = locale ?? 'all';
    let entry = translations.get(key);
    if (!entry) {
      const load = data<TTranslation[]>('/api/v1/translations', locale ? { locale } : undefined);
      entry = cachedValue(load, { ttlMs: ttlMs('translations'), now });
      translations.set(key, entry);
    }
    return entry;
  };

  const single = { channels, languages, company, subscription };
  return {
    channels: () => channels.get(),
    languages: () => languages.get(),
    translations: (locale) => translationsFor(locale).get(),
    company: () => company.get(),
    subscription: () => subscription.get(),
    invalidate: (key) => {
      if (key === undefined || key === 'translations') {
        for (const entry of translations.values()) entry.clear();
      }
      if (key === undefined) for (const entry of Object.values(single)) entry.clear();
      else if (key !== 'translations') single[key].clear();
    },
  };
};
