import { describe, expect, it } from 'vitest';

import {
  ZCreateLearnerRequestSchema,
  ZListLearnersQuerySchema,
  ZSyncLearnerListsRequestSchema,
  ZUpdateLearnerRequestSchema,
  toChannelKey,
  validateLearnerInput,
} from './learner.ts';
import { MESSAGES } from './messages.ts';

const valid = {
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.test',
  channels: ['slack'],
  locale: 'en',
};

const errorsOf = (input: unknown, mode: 'create' | 'update' = 'create') => {
  const result = validateLearnerInput(input, mode);
  return result.success ? {} : result.errors;
};

describe('channels as GET answers them', () => {
  it('accepts {key, name} objects, so a fetched learner can be sent back as it is', () => {
    const result = validateLearnerInput({
      first_name: 'Anna',
      last_name: 'Rossi',
      email: 'anna@example.com',
      phone: '+393331234567',
      channels: [
        { key: 'slack', name: 'Slack' },
        { key: 'whatsapp', name: 'Whatsapp' },
      ],
    });
    expect(result).toEqual({
      success: true,
      data: expect.objectContaining({ channels: ['slack', 'whatsapp'] }),
    });
  });

  it('still needs the contact a channel object asks for, and refuses unknown keys', () => {
    expect(
      validateLearnerInput({
        first_name: 'A',
        last_name: 'B',
        channels: [{ key: 'whatsapp', name: 'W' }],
      }),
    ).toEqual({ success: false, errors: { phone: [MESSAGES.phoneRequiredForChannel] } });
    expect(
      validateLearnerInput({
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.it',
        channels: [{ key: 'fax', name: 'Fax' }],
      }),
    ).toEqual({ success: false, errors: { 'channels.0': [MESSAGES.channelUnknown] } });
  });
});

describe('learner names (spec §5)', () => {
  it.each([
    'Zoë',
    "D'Arcy-Müller",
    'Anne Marie',
    'José Álvarez',
    'Łukasz',
    'Ørsted',
    'O’Neill',
    'a'.repeat(255),
  ])('accepts %j', (name) => {
    expect(errorsOf({ ...valid, first_name: name, last_name: name })).toEqual({});
  });

  it.each(['R2D2', 'Grace!', 'grace@home', 'Ann_Marie', '---', "''", 'Anne.Marie'])(
    'refuses %j',
    (name) => {
      expect(errorsOf({ ...valid, first_name: name })).toEqual({
        first_name: [MESSAGES.nameInvalid],
      });
    },
  );

  it('refuses 256 characters', () => {
    expect(errorsOf({ ...valid, last_name: 'a'.repeat(256) })).toEqual({
      last_name: [MESSAGES.nameMax],
    });
  });

  it('requires both names, blank counting as missing, with one message each', () => {
    expect(errorsOf({ ...valid, first_name: '   ', last_name: undefined })).toEqual({
      first_name: [MESSAGES.nameRequired],
      last_name: [MESSAGES.nameRequired],
    });
    expect(errorsOf({ ...valid, first_name: null })).toEqual({
      first_name: [MESSAGES.nameRequired],
    });
  });

  it('trims names', () => {
    const result = validateLearnerInput({ ...valid, first_name: '  Grace ' });
    expect(result.success && result.data.first_name).toBe('Grace');
  });
});

describe('learner e-mail (spec §5)', () => {
  it('trims and lowercases', () => {
    const result = validateLearnerInput({ ...valid, email: '  Grace@Example.TEST ' });
    expect(result.success && result.data.email).toBe('grace@example.test');
  });

  it.each(['grace', 'grace@', '@example.test', 'grace@example', 'gr ace@example.test'])(
    'refuses %j with "The email must be valid."',
    (email) => {
      expect(errorsOf({ ...valid, email })).toEqual({ email: ['The email must be valid.'] });
    },
  );

  it('is optional without an e-mail channel; empty means none', () => {
    for (const email of [undefined, null, '', '   ']) {
      const result = validateLearnerInput({
        ...valid,
        email,
        channels: ['whatsapp'],
        phone: '+393331234567',
      });
      expect(result).toEqual({
        success: true,
        data: expect.objectContaining({ email: null }),
      });
    }
  });

  it.each([['slack'], ['ms-teams'], ['webex'], ['google-chat']])(
    'is required for %s',
    (channel) => {
      expect(errorsOf({ ...valid, email: '', channels: [channel] })).toEqual({
        email: ['The email is required for this channel.'],
      });
    },
  );

  it('says "must be valid", not "required", for a malformed one on an e-mail channel', () => {
    expect(errorsOf({ ...valid, email: 'nope', channels: ['slack'] })).toEqual({
      email: [MESSAGES.emailInvalid],
    });
  });
});

describe('learner phone (spec §5)', () => {
  const whatsapp = { ...valid, channels: ['whatsapp'] };

  it('is required for WhatsApp, on the phone field', () => {
    expect(errorsOf({ ...whatsapp, phone: undefined })).toEqual({
      phone: ['Phone is required for this channel.'],
    });
  });

  it('counts one character as no phone, on create and on update', () => {
    expect(errorsOf({ ...whatsapp, phone: '+' })).toEqual({
      phone: [MESSAGES.phoneRequiredForChannel],
    });
    expect(errorsOf({ ...whatsapp, phone: ' ( - ) ' })).toEqual({
      phone: [MESSAGES.phoneRequiredForChannel],
    });
    expect(errorsOf({ ...whatsapp, phone: '+' }, 'update')).toEqual({
      phone: [MESSAGES.phoneRequiredForChannel],
    });
  });

  it('is cleaned of separators', () => {
    const result = validateLearnerInput({ ...whatsapp, phone: '+39 (333) 123-45.67' });
    expect(result.success && result.data.phone).toBe('+393331234567');
  });

  it.each(['393331234567', '+39 333 abc', '+12345', '+1234567890123456', '+-3'])(
    'refuses %j: a plus and 6 to 15 digits only',
    (phone) => {
      expect(errorsOf({ ...whatsapp, phone })).toEqual({ phone: [MESSAGES.phoneInvalid] });
    },
  );

  // Plus and 6 to 15 digits is the form; whether the number exists is libphonenumber's word.
  it.each(['+123456', '+123456789012345', '+39 1234', '+44 2012'])(
    'refuses %j: the form of a number, but no number of its country',
    (phone) => {
      expect(errorsOf({ ...whatsapp, phone })).toEqual({ phone: [MESSAGES.phoneNotPossible] });
    },
  );

  it.each(['+353871234567', '+4915123456789', '+3726001234', '+39 06 1234567'])(
    'accepts the real number %j, short or long',
    (phone) => {
      expect(errorsOf({ ...whatsapp, phone })).toEqual({});
    },
  );

  it('is optional without WhatsApp and null when absent or one character', () => {
    for (const mode of ['create', 'update'] as const) {
      for (const phone of [undefined, null, '', '+']) {
        const result = validateLearnerInput({ ...valid, phone }, mode);
        expect(result).toEqual({ success: true, data: expect.objectContaining({ phone: null }) });
      }
    }
  });
});

describe('learner channels', () => {
  it.each([
    ['whatsapp', 'whatsapp'],
    ['Whatsapp', 'whatsapp'],
    ['WhatsApp', 'whatsapp'],
    ['MS Teams', 'ms-teams'],
    ['ms-teams', 'ms-teams'],
    ['Google Chat', 'google-chat'],
    ['google_chat', 'google-chat'],
    [' Slack ', 'slack'],
    ['Webex', 'webex'],
    ['sms', undefined],
    ['', undefined],
  ])('toChannelKey(%j) → %j', (value, key) => {
    expect(toChannelKey(value)).toBe(key);
  });

  it('normalises names to keys and drops duplicates, in order', () => {
    const result = validateLearnerInput({
      ...valid,
      phone: '+393331234567',
      channels: ['MS Teams', 'Whatsapp', 'ms-teams'],
    });
    expect(result.success && result.data.channels).toEqual(['ms-teams', 'whatsapp']);
  });

  it('reads a CSV cell of names', () => {
    const result = validateLearnerInput({
      ...valid,
      phone: '+393331234567',
      channels: 'Slack; Whatsapp, webex',
    });
    expect(result.success && result.data.channels).toEqual(['slack', 'whatsapp', 'webex']);
  });

  it('names an unknown array entry by its index', () => {
    expect(errorsOf({ ...valid, channels: ['slack', 'sms'] })).toEqual({
      'channels.1': [MESSAGES.channelUnknown],
    });
  });

  it('names an unknown entry of a CSV cell on the field', () => {
    expect(errorsOf({ ...valid, channels: 'slack, sms' })).toEqual({
      channels: [MESSAGES.channelUnknown],
    });
  });

  it.each([[[]], [''], [' , '], [undefined], [null]])('requires at least one: %j', (channels) => {
    expect(errorsOf({ ...valid, channels })).toEqual({ channels: [MESSAGES.channelsRequired] });
  });

  it('refuses a value that is not a list or a string', () => {
    expect(errorsOf({ ...valid, channels: 5 })).toEqual({ channels: [MESSAGES.channelUnknown] });
  });

  it('accepts and ignores channel_name', () => {
    const result = validateLearnerInput({ ...valid, channel_name: 'Whatsapp' });
    expect(result.success && result.data.channels).toEqual(['slack']);
  });
});

describe('learner locale', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['it', 'it'],
    ['DE', 'de'],
  ])('%j → %j', (locale, expected) => {
    const result = validateLearnerInput({ ...valid, locale });
    expect(result.success && result.data.locale).toBe(expected);
  });

  it('refuses a language the app does not have', () => {
    expect(errorsOf({ ...valid, locale: 'fr' })).toEqual({ locale: [MESSAGES.localeInvalid] });
  });
});

describe('validateLearnerInput', () => {
  it('answers the cleaned learner', () => {
    expect(
      validateLearnerInput({
        first_name: ' Zoë ',
        last_name: "D'Arcy-Müller",
        email: 'ZOE@example.test',
        channels: ['Whatsapp', 'Slack'],
        phone: '+39 333 123 4567',
      }),
    ).toEqual({
      success: true,
      data: {
        first_name: 'Zoë',
        last_name: "D'Arcy-Müller",
        email: 'zoe@example.test',
        channels: ['whatsapp', 'slack'],
        locale: 'en',
        time_zone: null,
        phone: '+393331234567',
      },
    });
  });

  it('reports every field at once, contact rules included, as a form needs', () => {
    expect(
      errorsOf({ first_name: '', last_name: 'R2', channels: ['slack', 'whatsapp'], phone: '+' }),
    ).toEqual({
      first_name: [MESSAGES.nameRequired],
      last_name: [MESSAGES.nameInvalid],
      email: [MESSAGES.emailRequiredForChannel],
      phone: [MESSAGES.phoneRequiredForChannel],
    });
  });

  it('answers a body error for something that is not an object', () => {
    expect(errorsOf(null)).toEqual({ body: [MESSAGES.invalidDataNoInfo] });
    expect(errorsOf('Grace,Hopper')).toEqual({ body: [MESSAGES.invalidDataNoInfo] });
  });

  it('is what the request schemas do', () => {
    const input = { ...valid, channels: ['whatsapp'], phone: '+' };
    expect(ZCreateLearnerRequestSchema.safeParse(input).success).toBe(false);
    expect(ZUpdateLearnerRequestSchema.safeParse(input).success).toBe(false);
    expect(ZCreateLearnerRequestSchema.parse(valid)).toMatchObject({ phone: null });
  });
});

describe('ZListLearnersQuerySchema', () => {
  it('defaults to page 1 of the non-archived learners', () => {
    expect(ZListLearnersQuerySchema.parse({})).toEqual({ page: 1, archived: false });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads archived=%j', (archived, expected) => {
    expect(ZListLearnersQuerySchema.parse({ archived }).archived).toBe(expected);
  });

  it('refuses other flags, page 0 and more than 100 per page', () => {
    expect(ZListLearnersQuerySchema.safeParse({ archived: 'yes' }).success).toBe(false);
    expect(ZListLearnersQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(ZListLearnersQuerySchema.safeParse({ per_page: '101' }).success).toBe(false);
    expect(ZListLearnersQuerySchema.parse({ per_page: '100', page: '3' })).toMatchObject({
      per_page: 100,
      page: 3,
    });
  });

  it('trims the search text', () => {
    expect(ZListLearnersQuerySchema.parse({ search: '  ada ' }).search).toBe('ada');
  });
});

describe('ZSyncLearnerListsRequestSchema', () => {
  it('takes a list of uuids, empty included', () => {
    const uuid = '6a1c2f3e-0001-4c00-8000-000000000001';
    expect(ZSyncLearnerListsRequestSchema.parse({ lists: [uuid] })).toEqual({ lists: [uuid] });
    expect(ZSyncLearnerListsRequestSchema.parse({ lists: [] })).toEqual({ lists: [] });
  });

  it('refuses a malformed uuid and a missing field', () => {
    const bad = ZSyncLearnerListsRequestSchema.safeParse({ lists: ['nope'] });
    expect(bad.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['lists.0', MESSAGES.learnersListUnknown],
    ]);
    const missing = ZSyncLearnerListsRequestSchema.safeParse({});
    expect(missing.error?.issues.map((issue) => issue.message)).toEqual([MESSAGES.required]);
  });
});
