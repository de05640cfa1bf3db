import { describe, expect, it } from 'vitest';

import { MESSAGES } from './messages.ts';
import {
  ZChannelSchema,
  ZClassroomSchema,
  ZCompanyClassroomsParamsSchema,
  ZCompanySchema,
  ZLanguageSchema,
  ZListTranslationsQuerySchema,
  ZTranslationSchema,
  upgradeTranslationKeys,
} from './organisation.ts';

const UUID = '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61';

describe('company and classrooms', () => {
  it('accepts a company and a classroom with a uuid and a name', () => {
    expect(ZCompanySchema.parse({ uuid: UUID, name: 'Acme Training' })).toEqual({
      uuid: UUID,
      name: 'Acme Training',
    });
    expect(ZClassroomSchema.safeParse({ uuid: UUID, name: 'Sales Academy' }).success).toBe(true);
  });

  it('refuses a company without a valid uuid', () => {
    expect(ZCompanySchema.safeParse({ uuid: 'acme', name: 'Acme' }).success).toBe(false);
    expect(ZClassroomSchema.safeParse({ name: 'Sales Academy' }).success).toBe(false);
  });

  it('takes the company uuid from the path', () => {
    expect(ZCompanyClassroomsParamsSchema.safeParse({ companyUuid: UUID }).success).toBe(true);
    expect(ZCompanyClassroomsParamsSchema.safeParse({ companyUuid: '42' }).success).toBe(false);
  });
});

describe('channels and languages', () => {
  it('accepts a known channel with its contact kind', () => {
    const channel = { uuid: UUID, key: 'whatsapp', name: 'Whatsapp', contact: 'phone' };
    expect(ZChannelSchema.parse(channel)).toEqual(channel);
  });

  it('refuses an unknown channel key or contact kind', () => {
    const channel = { uuid: UUID, key: 'telegram', name: 'Telegram', contact: 'phone' };
    expect(ZChannelSchema.safeParse(channel).success).toBe(false);
    expect(ZChannelSchema.safeParse({ ...channel, key: 'slack', contact: 'fax' }).success).toBe(
      false,
    );
  });

  it('accepts the three interface languages only', () => {
    for (const short_name of ['en', 'it', 'de']) {
      expect(ZLanguageSchema.safeParse({ uuid: UUID, name: 'X', short_name }).success).toBe(true);
    }
    expect(
      ZLanguageSchema.safeParse({ uuid: UUID, name: 'Français', short_name: 'fr' }).success,
    ).toBe(false);
  });
});

describe('translations', () => {
  it('accepts a text of a known locale', () => {
    const text = {
      locale: 'it',
      key: 'upgrade.generic.title',
      value: 'Passa a un piano superiore',
    };
    expect(ZTranslationSchema.parse(text)).toEqual(text);
    expect(ZTranslationSchema.safeParse({ ...text, locale: 'fr' }).success).toBe(false);
  });

  it('filters by an optional locale', () => {
    expect(ZListTranslationsQuerySchema.parse({})).toEqual({});
    expect(ZListTranslationsQuerySchema.parse({ locale: 'de' })).toEqual({ locale: 'de' });
  });

  it('refuses an unknown locale with the language message', () => {
    const result = ZListTranslationsQuerySchema.safeParse({ locale: 'fr' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(MESSAGES.localeInvalid);
  });

  it("names the upgrade modal's texts after the 402 text key", () => {
    expect(upgradeTranslationKeys('learners_limit_reached')).toEqual({
      title: 'upgrade.learners_limit_reached.title',
      description: 'upgrade.learners_limit_reached.description',
    });
  });
});
