import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { importFile, uploadImport } from '../fixtures/imports.ts';
import { buildTestApp, createSignedInUser } from '../helper.ts';

// Issue 26: the country of national numbers chosen per phone column (upload field
// `phone_countries`). A file with an Irish mobile column and a Berlin office column: each column
// is read in its own country, over the row's country column and the file's default (IT).

const FILE = [
  'First name,Last name,Email,Mobile (Ireland),Office phone,Country,Channels',
  // The column says Irish, whatever the row's country column says.
  'Siobhan,Kelly,sk@example.ie,087 555 0199,030 1234567,Italy,whatsapp',
  // No mobile: the office number, read as German.
  'Jonas,Weber,jw@example.de,,030 1234567,,slack',
  // An Italian mobile in the Irish column: reported with its reading, never rewritten.
  'Giulia,Bianchi,gb@example.it,333 1234567,,,whatsapp',
].join('\n');

const COLUMNS = JSON.stringify({ 'Mobile (Ireland)': 'phone', 'Office phone': 'phone' });

describe('the country of national numbers per phone column', async () => {
  const app = await buildTestApp();

  it('stores each phone read in its column’s country', async () => {
    const { headers, company } = await createSignedInUser(app);
    const job = await importFile(
      app,
      headers,
      { name: 'team.csv', content: FILE },
      {
        columns: COLUMNS,
        phone_countries: JSON.stringify({ 'mobile (ireland)': 'ie', 'Office phone': 'DE' }),
      },
    );
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 1 });
    const stored = await app.db
      .selectFrom('learners')
      .select(['first_name', 'last_name', 'email', 'phone'])
      .where('company_uuid', '=', company.uuid)
      .orderBy('email')
      .execute();
    expect(stored).toEqual([
      { first_name: 'Jonas', last_name: 'Weber', email: 'jw@example.de', phone: '+49301234567' },
      {
        first_name: 'Siobhan',
        last_name: 'Kelly',
        email: 'sk@example.ie',
        phone: '+353875550199',
      },
    ]);
  });

  it('without the choice, reads the mobile as the row’s country says, or reports it', async () => {
    const { headers, company } = await createSignedInUser(app);
    const noCountryColumn = FILE.split('\n')
      .map((line) => line.split(',').toSpliced(5, 1).join(','))
      .join('\n');
    const job = await importFile(
      app,
      headers,
      { name: 'team.csv', content: noCountryColumn },
      { columns: COLUMNS },
    );
    // 087 555 0199 is an Irish mobile and an Italian landline: in an Italian file it is reported,
    // not stored as Italian. Jonas's 030 reads as Brescia (IT), the only reading.
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 1 });
    const stored = await app.db
      .selectFrom('learners')
      .select(['email', 'phone'])
      .where('company_uuid', '=', company.uuid)
      .orderBy('email')
      .execute();
    expect(stored).toEqual([
      { email: 'gb@example.it', phone: '+393331234567' },
      { email: 'jw@example.de', phone: '+390301234567' },
    ]);
  });

  it('answers 422 in the user’s language for a header that is no phone column or an unknown country', async () => {
    const { headers, company } = await createSignedInUser(app);
    const notPhone = await uploadImport(
      app,
      { ...headers, 'accept-language': 'it' },
      { name: 'team.csv', content: FILE },
      { columns: COLUMNS, phone_countries: JSON.stringify({ Email: 'IE' }) },
    );
    expect(notPhone.statusCode).toBe(422);
    expect(notPhone.json.error.errors).toEqual({
      phone_countries: [
        'La colonna Email non è una colonna dei telefoni del file: scegli un paese solo per le colonne associate al telefono.',
      ],
    });
    const badCountry = await uploadImport(
      app,
      headers,
      { name: 'team.csv', content: FILE },
      { columns: COLUMNS, phone_countries: JSON.stringify({ 'Mobile (Ireland)': 'XX' }) },
    );
    expect(badCountry.statusCode).toBe(422);
    expect(badCountry.json.error.errors).toEqual({
      'phone_countries.Mobile (Ireland)': [MESSAGES.importPhoneCountryInvalid],
    });
    const notJson = await uploadImport(
      app,
      { ...headers, 'accept-language': 'de' },
      { name: 'team.csv', content: FILE },
      { columns: COLUMNS, phone_countries: 'Mobile=IE' },
    );
    expect(notJson.json.error.errors.phone_countries).toEqual([
      'Die Länder der Telefonspalten müssen ein JSON-Objekt aus Spaltennamen und Ländercodes sein, zum Beispiel {"Mobile (Ireland)": "IE"}.',
    ]);
    // Nothing was queued or stored.
    const jobs = await app.db
      .selectFrom('jobs')
      .select('uuid')
      .where('company_uuid', '=', company.uuid)
      .execute();
    expect(jobs).toEqual([]);
  });
});
