import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { scanSource, usedKeys } from './literal-scan.ts';

// Every UI string goes through i18next: no text written into JSX, and every key used exists.

const SRC = path.resolve(import.meta.dirname, '..');

const sourceFiles = (dir: string, ext: RegExp): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, ext);
    return ext.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });

const en = JSON.parse(
  readFileSync(path.resolve(SRC, '../../../locales/en.json'), 'utf8'),
) as Record<string, unknown>;

const hasKey = (key: string) => {
  const lookup = (k: string) =>
    k.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en);
  return typeof lookup(key) === 'string' || typeof lookup(`${key}_other`) === 'string';
};

describe('the literal-string scan', () => {
  it('catches text in JSX, in JSX expressions and in props people read', () => {
    const findings = scanSource(
      'fixture.tsx',
      [
        'export const A = ({ ok }: { ok: boolean }) => (',
        '  <div title="Hello there" aria-label={"Close"} data-testid="fine">',
        '    Welcome back',
        "    {ok ? 'Yes' : t('no')}",
        '    <Input placeholder={`Type ${1} things`} />',
        '    {t("fine")} · {42} {"→"}',
        '  </div>',
        ');',
      ].join('\n'),
    );
    expect(findings.map(({ text, where }) => `${where}: ${text}`)).toEqual([
      'prop title: Hello there',
      'prop aria-label: Close',
      'JSX text: Welcome back',
      'JSX expression: Yes',
      'prop placeholder: Type … things',
    ]);
  });
});

describe('apps/web/src', () => {
  const files = sourceFiles(SRC, /\.tsx$/);

  it('has .tsx files to scan', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('writes no UI text into JSX (use t())', () => {
    const findings = files.flatMap((file) =>
      scanSource(path.relative(SRC, file), readFileSync(file, 'utf8')),
    );
    expect(findings.map((f) => `${f.file}:${f.line} ${f.where}: "${f.text}"`)).toEqual([]);
  });

  it('uses only translation keys that exist in locales/en.json', () => {
    const missing = sourceFiles(SRC, /\.tsx?$/).flatMap((file) =>
      usedKeys(file, readFileSync(file, 'utf8'))
        .filter(({ key }) => !hasKey(key))
        .map(({ key, line }) => `${path.relative(SRC, file)}:${line} ${key}`),
    );
    expect(missing).toEqual([]);
  });
});
