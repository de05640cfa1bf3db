import {
  createCsvParser,
  decodeImportText,
  detectImportEncoding,
  guessCsvDelimiter,
} from '@ccp/schemas';
import type { TImportEncoding, TImportEncodingGuess } from '@ccp/schemas';
import { unzip } from 'fflate';

// The first rows of an import file, read in the browser for the mapping step: the header the
// automatic matching starts from and a few rows to show and check. Nothing here decides what is
// imported: the server reads the whole file again with the same shared rules.

export type TFilePreview = {
  header: string[];
  rows: string[][];
  /** A CSV's encoding: the guess (or the user's choice) the server is sent. */
  encoding?: TImportEncodingGuess;
};

/** Data rows shown under the header. */
export const PREVIEW_ROWS = 5;
/** How much of a CSV is read for its first rows. */
const CSV_PREVIEW_BYTES = 256 * 1024;
/** An .xlsx is a zip read whole: larger workbooks are matched on the server without a preview. */
export const XLSX_PREVIEW_MAX_BYTES = 20 * 1024 * 1024;
/** How much of the first worksheet's XML is decoded for its first rows. */
const SHEET_PREVIEW_BYTES = 2 * 1024 * 1024;

/**
 * The first rows of a CSV with the shared reader of @ccp/schemas, as the server and the CLI read
 * it: the encoding (a BOM, else UTF-8 or Windows-1252; `encoding` overrides), the separator, the
 * parser. A cut file's last, incomplete record is left out.
 */
const readCsv = async (file: Blob, encoding?: TImportEncoding): Promise<TFilePreview> => {
  const bytes = new Uint8Array(await file.slice(0, CSV_PREVIEW_BYTES).arrayBuffer());
  const guess: TImportEncodingGuess = encoding
    ? { encoding, by: 'content' }
    : detectImportEncoding(bytes);
  const text = decodeImportText(bytes, guess.encoding);
  const parser = createCsvParser(guessCsvDelimiter(text));
  const records = [...parser.push(text), ...(file.size <= CSV_PREVIEW_BYTES ? parser.end() : [])];
  const [header = [], ...rows] = records.slice(0, PREVIEW_ROWS + 1).map((row) => row.cells);
  return { header, rows, encoding: guess };
};

const unzipEntries = (data: Uint8Array, wanted: (name: string) => boolean) =>
  new Promise<Record<string, Uint8Array>>((resolve, reject) =>
    unzip(data, { filter: (entry) => wanted(entry.name) }, (error, files) =>
      error ? reject(error) : resolve(files),
    ),
  );

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const xmlText = (value: string) =>
  value.replace(/&(#x?[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1]?.toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** The text of every `<t>` inside `xml`, joined (rich text runs included). */
const texts = (xml: string) =>
  [...xml.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)]
    .map((match) => xmlText(match[1] ?? ''))
    .join('');

const columnIndex = (reference: string) => {
  let index = 0;
  for (const letter of reference.replace(/\d+$/, ''))
    index = index * 26 + letter.charCodeAt(0) - 64;
  return index - 1;
};

const decode = (bytes: Uint8Array | undefined, limit = Infinity) =>
  bytes ? new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, limit))) : '';

/** The path of the workbook's first sheet, from workbook.xml and its relationships. */
const firstSheetPath = (workbook: string, relations: string): string => {
  const id = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(workbook)?.[1];
  const target = id
    ? (new RegExp(`<Relationship\\b[^>]*\\bId="${id}"[^>]*\\bTarget="([^"]+)"`).exec(
        relations,
      )?.[1] ??
      new RegExp(`<Relationship\\b[^>]*\\bTarget="([^"]+)"[^>]*\\bId="${id}"`).exec(relations)?.[1])
    : undefined;
  if (!target) return 'xl/worksheets/sheet1.xml';
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
};

const readXlsx = async (file: Blob): Promise<TFilePreview | null> => {
  if (file.size > XLSX_PREVIEW_MAX_BYTES) return null;
  const entries = await unzipEntries(
    new Uint8Array(await file.arrayBuffer()),
    (name) =>
      name === 'xl/workbook.xml' ||
      name === 'xl/_rels/workbook.xml.rels' ||
      name === 'xl/sharedStrings.xml' ||
      name.startsWith('xl/worksheets/'),
  );
  const sheetPath = firstSheetPath(
    decode(entries['xl/workbook.xml']),
    decode(entries['xl/_rels/workbook.xml.rels']),
  );
  const sheet = decode(entries[sheetPath], SHEET_PREVIEW_BYTES);
  const shared = [...decode(entries['xl/sharedStrings.xml']).matchAll(/<si>([\s\S]*?)<\/si>/g)].map(
    (match) => texts(match[1] ?? ''),
  );
  const records: string[][] = [];
  for (const row of sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const cell of (row[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cell[1] ?? '';
      const body = cell[2] ?? '';
      const reference = /\br="([A-Z]+\d*)"/.exec(attributes)?.[1];
      const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
      const raw = /<v>([^<]*)<\/v>/.exec(body)?.[1];
      const value =
        type === 's'
          ? (shared[Number(raw)] ?? '')
          : type === 'inlineStr'
            ? texts(body)
            : type === 'b'
              ? raw === '1'
                ? 'TRUE'
                : 'FALSE'
              : xmlText(raw ?? '');
      const index = reference ? columnIndex(reference) : cells.length;
      while (cells.length < index) cells.push('');
      cells[index] = value;
    }
    if (cells.some((value) => value.trim() !== '')) records.push(cells);
    if (records.length > PREVIEW_ROWS) break;
  }
  const [header = [], ...rows] = records;
  return { header, rows };
};

/** The first rows of a .csv or .xlsx; null when the file is too large to preview here. */
export const readPreview = async (
  file: File,
  encoding?: TImportEncoding,
): Promise<TFilePreview | null> =>
  /\.xlsx$/i.test(file.name) ? readXlsx(file) : readCsv(file, encoding);
