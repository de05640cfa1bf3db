import { open } from 'node:fs/promises';
import path from 'node:path';

// An upload's type is read from its name case-insensitively (LEARNERS.CSV is a .csv) and then
// checked against its first bytes (issue 11 §10), so a renamed file is refused before a parser
// spends time on it.

/** The extension of a file name, lower-cased, without the dot; '' when there is none. */
export const extensionOf = (fileName: string): string =>
  path.extname(fileName).slice(1).toLowerCase();

/** The first bytes of a file (as much as there is, up to `bytes`). */
export const headOf = async (file: string, bytes = 4096): Promise<Buffer> => {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

const startsWith = (head: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.subarray(at, at + expected.length).equals(expected);
};

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** Containers a text file never starts with: zip, PDF, PNG, GIF, JPEG, old Office. */
const BINARY_STARTS = [
  ZIP,
  '%PDF-',
  [0x89, 0x50, 0x4e, 0x47],
  'GIF8',
  [0xff, 0xd8, 0xff],
  [0xd0, 0xcf, 0x11, 0xe0],
];
// QuickTime and MPEG-4 files start with an atom: its size, then its type.
const MP4_ATOMS = ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

const isUtf16 = (head: Buffer) => startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff]);

/** Text in one byte per character or UTF-8: no NUL byte, no binary container's signature. */
const isPlainText = (head: Buffer) =>
  !head.includes(0) && !BINARY_STARTS.some((start) => startsWith(head, start));

const CHECKS: Record<string, (head: Buffer) => boolean> = {
  // PowerShell's `Export-Csv -Encoding Unicode` writes UTF-16 with its BOM (issue 26).
  csv: (head) => isUtf16(head) || isPlainText(head),
  txt: (head) => isUtf16(head) || isPlainText(head),
  xlsx: (head) => startsWith(head, ZIP),
  docx: (head) => startsWith(head, ZIP),
  pptx: (head) => startsWith(head, ZIP),
  // Readers accept junk before the header within the first kilobyte.
  pdf: (head) => head.subarray(0, 1024).includes('%PDF-'),
  mp4: (head) => MP4_ATOMS.some((atom) => startsWith(head, atom, 4)),
  mov: (head) => MP4_ATOMS.some((atom) => startsWith(head, atom, 4)),
  m4a: (head) => MP4_ATOMS.some((atom) => startsWith(head, atom, 4)),
  webm: (head) => startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]),
  mkv: (head) => startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]),
  avi: (head) => startsWith(head, 'RIFF') && startsWith(head, 'AVI ', 8),
  wav: (head) => startsWith(head, 'RIFF') && startsWith(head, 'WAVE', 8),
  wmv: (head) => startsWith(head, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]),
  mp3: (head) => startsWith(head, 'ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0),
  aac: (head) =>
    startsWith(head, 'ID3') ||
    startsWith(head, 'ADIF') ||
    (head[0] === 0xff && ((head[1] ?? 0) & 0xf6) === 0xf0),
  ogg: (head) => startsWith(head, 'OggS'),
};

/** Whether the first bytes of a file are those of the type its extension names. */
export const contentMatches = (type: string, head: Buffer): boolean =>
  head.length > 0 && (CHECKS[type]?.(head) ?? false);
