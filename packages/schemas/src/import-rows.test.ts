import { describe, expect, it } from 'vitest';

import { IMPORT_DEFAULT_COUNTRY, checkImportRow, importRowKey } from './import-rows.ts';
import { validateLearnerInput } from './learner.ts';
import { readImportPhone } from './import-phone.ts';
import { localeOfName } from './locale.ts';
import { ZImportUploadFieldsSchema } from './imports.ts';

const columns = { first_name: 0, last_name: 1, email: 2, phone: 3, channels: 4, locale: 5 };

describe('checkImportRow', () => {
  it('answers the cleaned learner and its key', () => {
    expect(
      checkImportRow(
        [' Ada ', 'Lovelace', 'ADA@Example.com', '+39 333 123 4567', 'Slack|whatsapp', 'IT'],
        columns,
        6,
        undefined,
      ),
    ).toEqual({
      ok: true,
      key: 'e:ada@example.com',
      phone: { e164: '+393331234567', country: 'IT', type: 'mobile' },
      warnings: [],
      learner: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '+393331234567',
        channels: ['slack', 'whatsapp'],
        locale: 'it',
        time_zone: null,
      },
    });
  });

  it('gives every reason of a bad row, and the line of a duplicate', () => {
    expect(
      checkImportRow(['Ada', 'L0velace', 'ada@', '', 'fax', 'fr', 'extra'], columns, 6, undefined),
    ).toEqual({
      ok: false,
      reasons: [
        'The row has more fields than the first row has columns.',
        'last_name: The name may only contain letters, spaces, apostrophes and dashes.',
        'email: The email must be valid.',
        'channels: The selected channel is invalid.',
        'locale: The selected language is invalid.',
      ],
    });
    expect(checkImportRow(['Ada', 'Lovelace', 'ada@x.it', '', 'slack', ''], columns, 6, 3)).toEqual(
      {
        ok: false,
        reasons: ['email: The email is already on line 3 of this file.'],
      },
    );
  });

  it('answers exactly what the learner schema does, row after row (fast path included)', () => {
    const values = {
      first_name: [
        'Ada',
        ' Zoë ',
        "D'Arco",
        'Anne-Marie',
        '',
        '   ',
        'Ada1',
        'A'.repeat(256),
        'José María',
        '—',
      ],
      email: [
        'a@b.it',
        '',
        ' A.B@Example.COM ',
        'a@b',
        'a..b@c.it',
        "o'neil@x.ie",
        'a@b.c',
        'a@-b.it',
        'x y@z.it',
      ],
      phone: [
        '+393331234567',
        '',
        '+',
        '333 123 4567',
        '+39 (333) 123-45.67',
        '+12345',
        '+1234567890123456',
        'abc',
      ],
      channels: [
        'slack',
        '',
        'Slack, WhatsApp',
        'ms teams;webex',
        'fax',
        ' , ',
        'google_chat|slack|slack',
        'whatsapp',
      ],
      locale: ['', 'it', ' DE ', 'fr', 'en-GB'],
    };
    // mulberry32: a fixed sequence, so a failure is reproducible.
    let seed = 7;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    // Mostly the first (plainly valid) value, so the fast path is exercised often.
    const pick = <T>(list: T[]): T =>
      random() < 0.75 ? list[0]! : list[Math.floor(random() * list.length)]!;
    const mismatches: unknown[] = [];
    let valid = 0;
    for (let index = 0; index < 4000; index += 1) {
      const cells = [
        pick(values.first_name),
        pick(values.first_name),
        pick(values.email),
        pick(values.phone),
        pick(values.channels),
        pick(values.locale),
      ];
      const check = checkImportRow(cells, columns, 6, undefined);
      // National numbers are read as the import's country (Italy unless chosen).
      const phone = readImportPhone(cells[3], { defaultCountry: IMPORT_DEFAULT_COUNTRY });
      const schema = validateLearnerInput({
        first_name: cells[0],
        last_name: cells[1],
        email: cells[2],
        phone: phone.ok ? (phone.phone?.e164 ?? '') : cells[3],
        channels: cells[4],
        locale: localeOfName(cells[5]) ?? cells[5],
      });
      const same =
        check.ok === (schema.success && phone.ok) &&
        (!check.ok ||
          !schema.success ||
          JSON.stringify(check.learner) === JSON.stringify(schema.data));
      if (!same) mismatches.push({ cells, check, schema });
      if (check.ok) valid += 1;
    }
    expect(mismatches).toEqual([]);
    expect(valid).toBeGreaterThan(200);
  });

  it('puts the default country in front of national phone numbers, in the key too', () => {
    const row = ['Ada', 'Lovelace', '', '333 123 4567', 'whatsapp', ''];
    // Not chosen: Italy (spec §9), as if chosen.
    expect(IMPORT_DEFAULT_COUNTRY).toBe('IT');
    expect(checkImportRow(row, columns, 6, undefined)).toEqual(
      checkImportRow(row, columns, 6, undefined, { defaultCountry: 'IT' }),
    );
    expect(checkImportRow(row, columns, 6, undefined, { defaultCountry: 'IT' })).toMatchObject({
      ok: true,
      key: 'p:+393331234567',
      learner: { phone: '+393331234567' },
    });
    expect(importRowKey(['', '', '', '+39 333 1234567'], columns, { defaultCountry: 'IT' })).toBe(
      'p:+393331234567',
    );
  });
});

describe('the default country', () => {
  it('is an upload field: a known two-letter code', () => {
    expect(ZImportUploadFieldsSchema.parse({ default_country: ' it ' }).default_country).toBe('IT');
    expect(ZImportUploadFieldsSchema.safeParse({ default_country: 'XX' }).success).toBe(false);
    expect(ZImportUploadFieldsSchema.parse({ columns: '{"Cellulare":"phone"}' }).columns).toEqual({
      Cellulare: 'phone',
    });
    expect(ZImportUploadFieldsSchema.safeParse({ columns: '{nope' }).success).toBe(false);
  });
});

describe('defaults of the upload (channel, language, country)', () => {
  // The Italian HR sheet of issue 14: Nome;Cognome;Email;Cellulare;Canale;Lingua.
  const hr = { first_name: 0, last_name: 1, email: 2, phone: 3, channels: 4, locale: 5 };

  it('reads a national mobile number as Italian unless another country is chosen', () => {
    const row = ['Giulia', 'Bianchi', 'giulia@example.it', '333 1234567', 'whatsapp', 'it'];
    expect(checkImportRow(row, hr, 6, undefined)).toMatchObject({
      ok: true,
      learner: { phone: '+393331234567', channels: ['whatsapp'] },
    });
    const irish = ['Siobhan', 'Kelly', 'sk@example.ie', '087 123 4567', 'whatsapp', 'en'];
    expect(checkImportRow(irish, hr, 6, undefined, { defaultCountry: 'IE' })).toMatchObject({
      ok: true,
      learner: { phone: '+353871234567' },
    });
  });

  it("fills channel and language where the file has none, the row's own value winning", () => {
    // Outlook: First Name, Last Name, E-mail Address, Mobile Phone; no channel, no language.
    const outlook = { first_name: 0, last_name: 1, email: 2, phone: 3 };
    const options = { defaultChannels: ['ms-teams'], defaultLocale: 'de' };
    expect(
      checkImportRow(['Jonas', 'Weber', 'jw@example.de', ''], outlook, 4, undefined, options),
    ).toMatchObject({ ok: true, learner: { channels: ['ms-teams'], locale: 'de' } });
    expect(
      checkImportRow(['Ada', 'Lovelace', 'a@x.test', '', 'slack', ''], hr, 6, undefined, options),
    ).toMatchObject({ ok: true, learner: { channels: ['slack'], locale: 'de' } });
    expect(checkImportRow(['Jonas', 'Weber', 'jw@example.de', ''], outlook, 4, undefined)).toEqual(
      expect.objectContaining({ ok: false }),
    );
  });

  it('are upload fields: known channels and languages only', () => {
    expect(
      ZImportUploadFieldsSchema.parse({
        default_channels: 'Slack, ms teams,',
        default_locale: 'IT',
      }),
    ).toMatchObject({ default_channels: ['slack', 'ms-teams'], default_locale: 'it' });
    expect(ZImportUploadFieldsSchema.safeParse({ default_channels: 'fax' }).success).toBe(false);
    expect(ZImportUploadFieldsSchema.safeParse({ default_locale: 'fr' }).success).toBe(false);
    expect(ZImportUploadFieldsSchema.parse({ default_channels: '' }).default_channels).toBe(
      undefined,
    );
  });
});
