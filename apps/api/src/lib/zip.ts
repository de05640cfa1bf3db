import type { Readable } from 'node:stream';

import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';

// Uploaded zip containers (.xlsx, .docx, .pptx) are read here, from their central directory and
// never all at once: a 2.5 MB workbook can unpack to gigabytes (issue 11 §2). Every entry is
// checked against a size before it is inflated, and yauzl fails an entry that inflates to more
// than its directory says, so a lying size cannot get past the check.

/** The file is not a zip archive we can read (damaged, encrypted, another format). */
export class ZipReadError extends Error {
  constructor(cause?: unknown) {
    super('The archive could not be read.', { cause });
    this.name = 'ZipReadError';
  }
}

/** The archive is readable but larger than the caller allows: entries, or unpacked bytes. */
export class ZipTooLargeError extends Error {
  constructor(what: string) {
    super(`The archive is too large: ${what}.`);
    this.name = 'ZipTooLargeError';
  }
}

export type ZipArchive = {
  /** Entries by name (names are unique: an archive naming one twice is refused). */
  entries: Map<string, Entry>;
  /** The unpacked bytes of an entry as a stream, after checking its size against `maxBytes`. */
  open: (entry: Entry, maxBytes: number) => Promise<Readable>;
  /** An entry unpacked as UTF-8 text, at most `maxBytes`. */
  readText: (entry: Entry, maxBytes: number) => Promise<string>;
  close: () => void;
};

const openFile = (path: string) =>
  new Promise<ZipFile>((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => (error || !zip ? reject(new ZipReadError(error)) : resolve(zip)),
    );
  });

/** Opens a zip file and lists its entries; refuses one of more than `maxEntries`. */
export const openZip = async (path: string, { maxEntries }: { maxEntries: number }) => {
  const zip = await openFile(path);
  try {
    if (zip.entryCount > maxEntries) throw new ZipTooLargeError(`${zip.entryCount} entries`);
    const entries = new Map<string, Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (entries.has(entry.fileName)) {
          reject(new ZipReadError(`${entry.fileName} appears twice`));
          return;
        }
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (error: unknown) => reject(new ZipReadError(error)));
      zip.readEntry();
    });
    const open = (entry: Entry, maxBytes: number) => {
      if (entry.uncompressedSize > maxBytes) {
        return Promise.reject(
          new ZipTooLargeError(`${entry.fileName} unpacks to ${entry.uncompressedSize} bytes`),
        );
      }
      return new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (error, stream) =>
          error || !stream ? reject(new ZipReadError(error)) : resolve(stream),
        );
      });
    };
    const readText = async (entry: Entry, maxBytes: number) => {
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of await open(entry, maxBytes)) chunks.push(chunk as Buffer);
      } catch (error) {
        if (error instanceof ZipTooLargeError || error instanceof ZipReadError) throw error;
        throw new ZipReadError(error);
      }
      return Buffer.concat(chunks).toString('utf8');
    };
    return { entries, open, readText, close: () => zip.close() } satisfies ZipArchive;
  } catch (error) {
    zip.close();
    throw error;
  }
};
