import { MESSAGES } from './messages.ts';

// The text encoding of an import CSV, decided once from its first bytes the same way by the upload
// page's preview, the server's pre-scan and job, and the CLI's dry run (issue 26): a BOM says it
// (Excel's "CSV UTF-8", PowerShell's `Export-Csv -Encoding Unicode`); otherwise bytes that are
// valid UTF-8 are UTF-8 and anything else is Windows-1252, what Excel's plain "CSV" writes on a
// German or Italian Windows. Decoding and encoding go through the WHATWG Encoding Standard
// (TextDecoder), which browsers and Node (full ICU) share; see docs/decisions.md.

export const IMPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type TImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/** How much of a file the guess reads. */
export const IMPORT_ENCODING_SNIFF_BYTES = 64 * 1024;

export type TImportEncodingGuess = {
  encoding: TImportEncoding;
  /** `bom`: the file says so; `content`: guessed from its bytes. */
  by: 'bom' | 'content';
};

const BOMS: readonly [TImportEncoding, readonly number[]][] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

/** An encoding named by a person (`--encoding latin1`, `UTF8`, `cp1252`), or undefined. */
export const importEncodingOf = (name: string | null | undefined): TImportEncoding | undefined => {
  const key = (name ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const aliases: Record<string, TImportEncoding> = {
    utf8: 'utf-8',
    utf16: 'utf-16le',
    utf16le: 'utf-16le',
    unicode: 'utf-16le',
    utf16be: 'utf-16be',
    windows1252: 'windows-1252',
    cp1252: 'windows-1252',
    win1252: 'windows-1252',
    latin1: 'windows-1252',
    iso88591: 'windows-1252',
    ansi: 'windows-1252',
  };
  return aliases[key];
};

/** The message of an unknown encoding name, for the upload field and `--encoding`. */
export const IMPORT_ENCODING_INVALID = MESSAGES.importEncodingInvalid;

const isUtf8 = (bytes: Uint8Array): boolean => {
  // A cut at the end of the sample may split a character: up to 3 bytes of it are forgiven.
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      if (back < need) end -= back;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
};

/** The encoding of a file from its first bytes (IMPORT_ENCODING_SNIFF_BYTES of them). */
export const detectImportEncoding = (head: Uint8Array): TImportEncodingGuess => {
  for (const [encoding, bom] of BOMS) {
    if (bom.every((byte, index) => head[index] === byte)) return { encoding, by: 'bom' };
  }
  return { encoding: isUtf8(head) ? 'utf-8' : 'windows-1252', by: 'content' };
};

/**
 * A streaming decoder: `write(chunk)` answers the text of the complete characters so far,
 * `end()` the rest. A leading BOM is dropped.
 */
export const createImportDecoder = (encoding: TImportEncoding) => {
  const decoder = new TextDecoder(encoding);
  return {
    write: (chunk: Uint8Array): string => decoder.decode(chunk, { stream: true }),
    end: (): string => decoder.decode(),
  };
};

/** The whole text of `bytes` in `encoding`, BOM dropped. */
export const decodeImportText = (bytes: Uint8Array, encoding: TImportEncoding): string =>
  new TextDecoder(encoding).decode(bytes);

let windows1252: Map<number, number> | undefined;
const windows1252Bytes = () => {
  if (windows1252) return windows1252;
  windows1252 = new Map();
  const decoder = new TextDecoder('windows-1252');
  for (let byte = 0; byte < 256; byte += 1) {
    windows1252.set(decoder.decode(new Uint8Array([byte])).charCodeAt(0), byte);
  }
  return windows1252;
};

/**
 * `text` in `encoding`, so a report holds a row's cells byte for byte as its file did. A
 * character Windows-1252 cannot hold (none that came from such a file) becomes `?`.
 */
export const encodeImportText = (text: string, encoding: TImportEncoding): Uint8Array => {
  if (encoding === 'utf-8') return new TextEncoder().encode(text);
  if (encoding === 'windows-1252') {
    const table = windows1252Bytes();
    const bytes = new Uint8Array(text.length);
    for (let index = 0; index < text.length; index += 1) {
      bytes[index] = table.get(text.charCodeAt(index)) ?? 0x3f;
    }
    return bytes;
  }
  const bytes = new Uint8Array(text.length * 2);
  const littleEndian = encoding === 'utf-16le';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    bytes[index * 2 + (littleEndian ? 0 : 1)] = unit & 0xff;
    bytes[index * 2 + (littleEndian ? 1 : 0)] = unit >> 8;
  }
  return bytes;
};

/** Whether the byte scans for `,` `"` and line ends work on the raw bytes (one byte per ASCII). */
export const isAsciiCompatible = (encoding: TImportEncoding): boolean =>
  encoding === 'utf-8' || encoding === 'windows-1252';

/** The BOM a report in `encoding` starts with, so spreadsheets read it right (none for 1252). */
export const importReportBom = (encoding: TImportEncoding): string =>
  encoding === 'windows-1252' ? '' : '\ufeff';
