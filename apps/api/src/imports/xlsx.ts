import path from 'node:path';

import { SaxesParser } from 'saxes';

import { openZip } from '../lib/zip.ts';
import type { ZipArchive } from '../lib/zip.ts';

// The rows of an .xlsx workbook's first worksheet, read from the zip's central directory and
// parsed as a stream, within fixed bounds (issue 11 §2: a 2.5 MB workbook whose shared strings
// held 43 million entries took 100 s and 2.9 GB through exceljs, which cached them all). What a
// person sees in a cell is kept: shared and inline strings (rich text joined), numbers, booleans,
// formula results; styles, hyperlinks and the other sheets are not read.

/** Bounds of a workbook we read; a real 100,000-row import is far inside them (docs/imports.md). */
export const XLSX_LIMITS = {
  entries: 1000,
  /** workbook.xml and the relationship parts. */
  partBytes: 4 * 1024 * 1024,
  /** sharedStrings.xml unpacked; 100,000 learners take about 5 MB. */
  sharedStringsBytes: 32 * 1024 * 1024,
  sharedStrings: 500_000,
  /** The first worksheet unpacked; 100,000 learners in 6 columns take about 26 MB. */
  sheetBytes: 96 * 1024 * 1024,
  columns: 256,
  /** Excel's own last row. */
  rows: 1_048_576,
} as const;

/** Why a workbook is refused: not a workbook at all, or beyond XLSX_LIMITS. */
export class XlsxError extends Error {
  readonly reason: 'broken' | 'too-large';
  constructor(reason: 'broken' | 'too-large', detail: string) {
    super(detail);
    this.name = 'XlsxError';
    this.reason = reason;
  }
}

export type XlsxRow = { line: number; cells: string[] };

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

const decodeEntities = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const attributesOf = (tag: string): Map<string, string> => {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set(localName(match[1]!), decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return attributes;
};

/** The relationships of a part: id → { type, target resolved against the part's folder }. */
const relationshipsOf = (xml: string, folder: string) => {
  const relationships = new Map<string, { type: string; target: string }>();
  for (const match of xml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const attributes = attributesOf(match[0]);
    const target = attributes.get('Target') ?? '';
    relationships.set(attributes.get('Id') ?? '', {
      type: attributes.get('Type') ?? '',
      target: target.startsWith('/')
        ? target.slice(1)
        : path.posix.normalize(path.posix.join(folder, target)),
    });
  }
  return relationships;
};

const partText = async (zip: ZipArchive, name: string): Promise<string | null> => {
  const entry = zip.entries.get(name);
  return entry ? zip.readText(entry, XLSX_LIMITS.partBytes) : null;
};

/** Where the first worksheet and the shared strings are, from the workbook's relationships. */
const locateParts = async (zip: ZipArchive) => {
  const root = relationshipsOf((await partText(zip, '_rels/.rels')) ?? '', '');
  const workbookPath =
    [...root.values()].find((rel) => rel.type.endsWith('/officeDocument'))?.target ??
    'xl/workbook.xml';
  const folder = path.posix.dirname(workbookPath);
  const workbook = await partText(zip, workbookPath);
  if (workbook === null) throw new XlsxError('broken', 'no workbook part');
  const rels = relationshipsOf(
    (await partText(zip, `${folder}/_rels/${path.posix.basename(workbookPath)}.rels`)) ?? '',
    folder,
  );
  const firstSheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbook)?.[0];
  const sheetId = firstSheet ? attributesOf(firstSheet).get('id') : undefined;
  const sheet = (sheetId && rels.get(sheetId)?.target) || `${folder}/worksheets/sheet1.xml`;
  const sharedStrings =
    [...rels.values()].find((rel) => rel.type.endsWith('/sharedStrings'))?.target ??
    `${folder}/sharedStrings.xml`;
  return { sheet, sharedStrings };
};

/** Feeds an entry's XML to a saxes parser as it inflates. */
async function* parseEntry(
  zip: ZipArchive,
  name: string,
  maxBytes: number,
  parser: SaxesParser,
): AsyncGenerator<void> {
  const entry = zip.entries.get(name);
  if (!entry) return;
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of await zip.open(entry, maxBytes)) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
    yield;
  }
  parser.write(decoder.decode());
  parser.close();
  yield;
}

/** The shared strings, as a person sees them (rich-text runs joined, phonetic runs left out). */
const readSharedStrings = async (zip: ZipArchive, name: string): Promise<string[]> => {
  const strings: string[] = [];
  const parser = new SaxesParser();
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  parser.on('opentag', (tag) => {
    const tagName = localName(tag.name);
    if (tagName === 'si') current = '';
    else if (tagName === 'rPh') phonetic += 1;
    else if (tagName === 't' && current !== null && phonetic === 0) inText = !tag.isSelfClosing;
  });
  parser.on('closetag', (tag) => {
    const tagName = localName(tag.name);
    if (tagName === 't') inText = false;
    else if (tagName === 'rPh') phonetic -= 1;
    else if (tagName === 'si' && current !== null) {
      if (strings.length >= XLSX_LIMITS.sharedStrings) {
        throw new XlsxError('too-large', 'too many shared strings');
      }
      strings.push(current);
      current = null;
    }
  });
  parser.on('text', (text) => {
    if (inText && current !== null) current += text;
  });
  parser.on('cdata', (text) => {
    if (inText && current !== null) current += text;
  });
  for await (const _ of parseEntry(zip, name, XLSX_LIMITS.sharedStringsBytes, parser)) {
    // Each chunk is parsed as it comes; the strings are collected by the handlers above.
  }
  return strings;
};

/** "B12" → 2; 0 when the reference has no column. */
const columnOf = (reference: string): number => {
  let column = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    if (column > XLSX_LIMITS.columns) return column;
  }
  return column;
};

const cellValue = (type: string, value: string, inline: string, shared: string[]): string => {
  switch (type) {
    case 's':
      return shared[Number(value)] ?? '';
    case 'inlineStr':
      return inline;
    case 'b':
      return value.trim() === '1' ? 'true' : 'false';
    case 'e':
      return '';
    case 'str':
    case 'd':
      return value;
    default: {
      // Numbers read as a spreadsheet shows them unformatted: 393331234567, not 3.9E+11.
      const number = Number(value);
      return value.trim() !== '' && Number.isFinite(number) ? String(number) : value;
    }
  }
};

/** The rows of the first worksheet with their row numbers; blank rows are skipped. */
export async function* readXlsxRows(file: string): AsyncGenerator<XlsxRow> {
  let zip: ZipArchive;
  try {
    zip = await openZip(file, { maxEntries: XLSX_LIMITS.entries });
  } catch (error) {
    throw toXlsxError(error);
  }
  try {
    const { sheet, sharedStrings } = await locateParts(zip);
    if (!zip.entries.has(sheet)) throw new XlsxError('broken', 'no worksheet');
    const shared = await readSharedStrings(zip, sharedStrings);

    const parser = new SaxesParser();
    const ready: XlsxRow[] = [];
    let rowNumber = 0;
    let cells: string[] = [];
    let column = 0;
    let type = '';
    let value = '';
    let inline = '';
    let reading: 'v' | 't' | null = null;
    parser.on('opentag', (tag) => {
      const tagName = localName(tag.name);
      const attributes = tag.attributes as Record<string, string>;
      if (tagName === 'row') {
        const number = Number(attributes.r);
        rowNumber = Number.isInteger(number) && number > 0 ? number : rowNumber + 1;
        if (rowNumber > XLSX_LIMITS.rows) throw new XlsxError('broken', 'row out of range');
        cells = [];
        column = 0;
      } else if (tagName === 'c') {
        const fromReference = columnOf(attributes.r ?? '');
        column = fromReference > 0 ? fromReference : column + 1;
        if (column > XLSX_LIMITS.columns) throw new XlsxError('too-large', 'too many columns');
        type = attributes.t ?? 'n';
        value = '';
        inline = '';
      } else if (tagName === 'v' && !tag.isSelfClosing) reading = 'v';
      else if (tagName === 't' && !tag.isSelfClosing) reading = 't';
    });
    const collect = (text: string) => {
      if (reading === 'v') value += text;
      else if (reading === 't') inline += text;
    };
    parser.on('text', collect);
    parser.on('cdata', collect);
    parser.on('closetag', (tag) => {
      const tagName = localName(tag.name);
      if (tagName === 'v' || tagName === 't') reading = null;
      else if (tagName === 'c') {
        const text = cellValue(type, value, inline, shared);
        while (cells.length < column - 1) cells.push('');
        cells[column - 1] = text;
      } else if (tagName === 'row') {
        if (cells.some((cell) => cell.trim() !== '')) ready.push({ line: rowNumber, cells });
      }
    });
    for await (const _ of parseEntry(zip, sheet, XLSX_LIMITS.sheetBytes, parser)) {
      yield* ready.splice(0);
    }
  } catch (error) {
    throw toXlsxError(error);
  } finally {
    zip.close();
  }
}

const toXlsxError = (error: unknown): XlsxError => {
  if (error instanceof XlsxError) return error;
  if (error instanceof Error && error.name === 'ZipTooLargeError') {
    return new XlsxError('too-large', error.message);
  }
  return new XlsxError('broken', error instanceof Error ? error.message : String(error));
};
