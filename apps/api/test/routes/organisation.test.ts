import {
  LOCALES,
  MESSAGES,
  SUBSCRIPTION_FUNCTION_KEYS,
  errorTextKey,
  limitReachedMessage,
  upgradeTranslationKeys,
} from '@ccp/schemas';
import type { TChannel, TTranslation } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { bearer, insertClassroom } from '../fixtures/organisation.ts';
import { buildTestApp, call, createCompany, createSignedInUser, createUser } from '../helper.ts';

const UNAUTHENTICATED = {
  error: { status: 401, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' },
};
const NOT_FOUND = { error: { status: 404, code: 'NOT_FOUND', message: 'Not found.' } };

describe('company, classrooms and reference data', async () => {
  const app = await buildTestApp();
  const caller = await createSignedInUser(app);
  const other = await createCompany(app, { name: 'Other Co' });
  const get = (url: string, headers: Record<string, string> = caller.headers) =>
    call(app, { method: 'GET', url, headers });

  it.each([
    '/api/v1/company',
    `/api/v1/companies/${caller.company.uuid}/classrooms`,
    '/api/v1/channels',
    '/api/v1/languages',
    '/api/v1/translations',
  ])('answers 401 without a token: %s', async (url) => {
    const response = await call(app, { method: 'GET', url });
    expect(response.statusCode).toBe(401);
    expect(response.json).toEqual(UNAUTHENTICATED);
  });

  it('answers 401 for an unknown token', async () => {
    const response = await get('/api/v1/company', { authorization: 'Bearer not-a-token' });
    expect(response.statusCode).toBe(401);
    expect(response.json).toEqual(UNAUTHENTICATED);
  });

  describe('GET /api/v1/company', () => {
    it("answers the caller's company", async () => {
      const response = await get('/api/v1/company');
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ data: { uuid: caller.company.uuid, name: 'Test Co' } });
    });

    it('answers each user their own company', async () => {
      const member = await createUser(app, other, { isAdmin: false });
      const response = await get('/api/v1/company', await bearer(app, member));
      expect(response.json).toEqual({ data: { uuid: other.uuid, name: 'Other Co' } });
    });
  });

  describe('GET /api/v1/companies/{companyUuid}/classrooms', () => {
    it('answers the classrooms by position, the current one first', async () => {
      const response = await get(`/api/v1/companies/${caller.company.uuid}/classrooms`);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ data: caller.company.classrooms });
      expect(response.json.data[0].name).toBe('First');
    });

    it('orders by position, then by name', async () => {
      const company = await createCompany(app, { name: 'Ordered Co' });
      const zeta = await insertClassroom(app, company.uuid, { name: 'Zeta', position: -1 });
      const alpha = await insertClassroom(app, company.uuid, { name: 'Alpha', position: 1 });
      const admin = await createUser(app, company);
      const response = await get(
        `/api/v1/companies/${company.uuid}/classrooms`,
        await bearer(app, admin),
      );
      expect(response.json.data).toEqual([
        { uuid: zeta, name: 'Zeta' },
        company.classrooms[0],
        { uuid: alpha, name: 'Alpha' },
        company.classrooms[1],
      ]);
    });

    it("answers 404 for another company's uuid, without its data", async () => {
      const response = await get(`/api/v1/companies/${other.uuid}/classrooms`);
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(NOT_FOUND);
      expect(response.body).not.toContain(other.classrooms[0]?.uuid);
    });

    it('answers 404 for an unknown or malformed uuid', async () => {
      const unknown = await get(
        '/api/v1/companies/0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61/classrooms',
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json).toEqual(NOT_FOUND);
      const malformed = await get('/api/v1/companies/not-a-uuid/classrooms');
      expect(malformed.statusCode).toBe(404);
      expect(malformed.json).toEqual(NOT_FOUND);
    });
  });

  describe('GET /api/v1/channels', () => {
    it('answers the five channels in order, WhatsApp reached by phone', async () => {
      const response = await get('/api/v1/channels');
      expect(response.statusCode).toBe(200);
      const channels = response.json.data as TChannel[];
      expect(channels.map((channel) => channel.key)).toEqual([
        'ms-teams',
        'slack',
        'whatsapp',
        'webex',
        'google-chat',
      ]);
      expect(channels[2]).toEqual({
        uuid: '6a1c2f3e-0001-4c00-8000-000000000003',
        key: 'whatsapp',
        name: 'WhatsApp',
        contact: 'phone',
      });
      expect(channels.filter((channel) => channel.contact === 'email')).toHaveLength(4);
    });
  });

  describe('GET /api/v1/languages', () => {
    it('answers en, it and de', async () => {
      const response = await get('/api/v1/languages');
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: [
          { uuid: '6a1c2f3e-0002-4c00-8000-000000000001', name: 'English', short_name: 'en' },
          { uuid: '6a1c2f3e-0002-4c00-8000-000000000002', name: 'Italiano', short_name: 'it' },
          { uuid: '6a1c2f3e-0002-4c00-8000-000000000003', name: 'Deutsch', short_name: 'de' },
        ],
      });
    });
  });

  describe('GET /api/v1/translations', () => {
    const byLocale = async () => {
      const map = new Map<string, Map<string, string>>();
      for (const locale of LOCALES) {
        const response = await get(`/api/v1/translations?locale=${locale}`);
        expect(response.statusCode).toBe(200);
        const rows = response.json.data as TTranslation[];
        expect(rows.every((row) => row.locale === locale)).toBe(true);
        map.set(locale, new Map(rows.map((row) => [row.key, row.value])));
      }
      return map;
    };

    it('answers every locale without a filter', async () => {
      const response = await get('/api/v1/translations');
      expect(response.statusCode).toBe(200);
      const rows = response.json.data as TTranslation[];
      expect(new Set(rows.map((row) => row.locale))).toEqual(new Set(LOCALES));
      const perLocale = await byLocale();
      const total = [...perLocale.values()].reduce((sum, texts) => sum + texts.size, 0);
      expect(rows).toHaveLength(total);
    });

    it('has the same non-empty keys in en, it and de', async () => {
      const perLocale = await byLocale();
      const en = [...(perLocale.get('en')?.keys() ?? [])].sort();
      expect(en.length).toBeGreaterThan(0);
      for (const locale of LOCALES) {
        const texts = perLocale.get(locale);
        expect([...(texts?.keys() ?? [])].sort()).toEqual(en);
        expect([...(texts?.values() ?? [])].every((value) => value.trim().length > 0)).toBe(true);
      }
    });

    it("has the upgrade modal's title and description for every plan function's 402 text", async () => {
      const perLocale = await byLocale();
      const problems: string[] = [];
      for (const feature of SUBSCRIPTION_FUNCTION_KEYS) {
        const keys = upgradeTranslationKeys(errorTextKey(limitReachedMessage(feature)));
        for (const key of [keys.title, keys.description]) {
          const en = perLocale.get('en')?.get(key);
          if (en === undefined) problems.push(`${key}: missing`);
          // Translated, not copied.
          if (perLocale.get('it')?.get(key) === en) problems.push(`${key}: it equals en`);
          if (perLocale.get('de')?.get(key) === en) problems.push(`${key}: de equals en`);
        }
      }
      expect(problems).toEqual([]);
      expect(perLocale.get('en')?.get('upgrade.learners_limit_reached.title')).toBe(
        'Learners limit reached',
      );
      expect(perLocale.get('it')?.get('upgrade.generic.title')).toBe('Passa a un piano superiore');
      expect(perLocale.get('de')?.get('upgrade.generic.title')).toBe('Tarif upgraden');
    });

    it('answers 422 for an unknown locale', async () => {
      const response = await get('/api/v1/translations?locale=fr');
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual({
        error: {
          status: 422,
          code: 'VALIDATION_FAILED',
          message: MESSAGES.localeInvalid,
          errors: { locale: [MESSAGES.localeInvalid] },
        },
      });
    });
  });

  it('describes every route in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(response.json.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/company',
        '/api/v1/companies/{companyUuid}/classrooms',
        '/api/v1/channels',
        '/api/v1/languages',
        '/api/v1/translations',
      ]),
    );
  });
});
