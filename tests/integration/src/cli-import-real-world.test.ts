import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { TImportPreviewRow } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 26: the real exports of the API's tests (apps/api/test/imports/real-world/) through the
// built `ccp learners import --dry-run --json`: with the same defaults, its preview is exactly
// what the server stores (real-world/expected.json), and it counts the same failed rows.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CCP = path.join(ROOT, 'apps/cli/bin/ccp.js');
const FILES = path.join(ROOT, 'apps/api/test/imports/real-world');
const configDir = mkdtempSync(path.join(tmpdir(), 'ccp-real-world-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

type TExpected = {
  file: string;
  fields: Record<string, string>;
  created: number;
  failed: number;
  stored: (Omit<TImportPreviewRow, 'line' | 'phone' | 'warnings'> & { phone: string | null })[];
};
const EXPECTED = JSON.parse(readFileSync(path.join(FILES, 'expected.json'), 'utf8')) as TExpected[];

const FLAGS: Record<string, string> = {
  default_channels: '--default-channels',
  default_country: '--default-country',
  default_locale: '--default-language',
};

describe('ccp learners import --dry-run --json on real exports', () => {
  it.each(EXPECTED)(
    '$file previews what the server stores',
    ({ file, fields, created, failed, stored }) => {
      const flags = Object.entries(fields).flatMap(([field, value]) => [FLAGS[field]!, value]);
      const run = spawnSync(
        process.execPath,
        [CCP, 'learners', 'import', path.join(FILES, file), '--dry-run', '--json', ...flags],
        { encoding: 'utf8', env: { ...process.env, CI: 'true', CCP_CONFIG_DIR: configDir } },
      );
      const result = JSON.parse(run.stdout) as {
        valid: number;
        failed: number;
        preview: TImportPreviewRow[];
      };
      expect({ valid: result.valid, failed: result.failed }).toEqual({ valid: created, failed });
      const previewed = result.preview
        .map(({ line: _line, warnings: _warnings, phone, ...row }) => ({
          ...row,
          phone: phone?.e164 ?? null,
        }))
        .sort((a, b) => a.first_name.localeCompare(b.first_name));
      expect(previewed).toEqual(stored);
    },
  );
});

describe('ccp learners import --phone-country', () => {
  // A file with an Irish mobile column and a Berlin office column (the API's
  // test/imports/phone-countries.test.ts stores the same numbers).
  const file = path.join(configDir, 'team.csv');
  writeFileSync(
    file,
    [
      'First name,Last name,Email,Mobile (Ireland),Office phone,Channels',
      'Siobhan,Kelly,sk@example.ie,087 555 0199,030 1234567,whatsapp',
      'Jonas,Weber,jw@example.de,,030 1234567,slack',
    ].join('\n'),
  );
  const ccp = (...flags: string[]) =>
    spawnSync(
      process.execPath,
      [CCP, 'learners', 'import', file, '--dry-run', '--json', ...flags],
      { encoding: 'utf8', env: { ...process.env, CI: 'true', CCP_CONFIG_DIR: configDir } },
    );
  const map = ['--map', 'Mobile (Ireland)=phone', '--map', 'Office phone=phone'];

  it('reads each phone column in its country and shows the choice in --json', () => {
    const run = ccp(
      ...map,
      '--phone-country',
      'Mobile (Ireland)=ie',
      '--phone-country',
      'office phone=DE',
    );
    const result = JSON.parse(run.stdout) as {
      phone_countries: Record<string, string>;
      preview: TImportPreviewRow[];
    };
    expect(run.status).toBe(0);
    expect(result.phone_countries).toEqual({ 'Mobile (Ireland)': 'IE', 'Office phone': 'DE' });
    expect(result.preview.map((row) => [row.first_name, row.phone])).toEqual([
      ['Siobhan', { e164: '+353875550199', country: 'IE', type: 'mobile' }],
      ['Jonas', { e164: '+49301234567', country: 'DE', type: 'landline' }],
    ]);
  });

  it('refuses a column that is no phone (exit 1) and a bad flag (exit 2)', () => {
    const notPhone = ccp(...map, '--phone-country', 'Email=IE');
    expect(notPhone.status).toBe(1);
    expect((JSON.parse(notPhone.stdout) as { problems: string[] }).problems).toEqual([
      'The column Email is not a phone column of the file: choose a country only for the columns mapped to the phone.',
    ]);
    const bad = ccp(...map, '--phone-country', 'Mobile (Ireland)=Ireland');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--phone-country: "Mobile (Ireland)=Ireland" is not HEADER=COUNTRY',
    );
  });
});
