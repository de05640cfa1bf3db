import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { newUuid } from '../lib/ids.ts';

// Every file the server keeps for longer than a request (import uploads, error reports,
// exports, cover images) lives in one FileStore, under a key such as `imports/<uuid>.csv`:
// - the local directory (the embedded default: the data dir, or CCP_FILES_DIR), or
// - S3-compatible object storage (CCP_STORAGE_URL, storage/s3-store.ts), which every server of
//   a scale-out deployment reads (docs/ARCHITECTURE.md, "Running more than one server").
// Content always streams in and out: nothing here holds a whole file in memory. Large files are
// written in two steps: first to a staging file on this machine (`stage`), where they can be
// checked, then kept (`keep`): a rename in a local store, an upload to object storage.
// Scratch files (staging, local copies for random-access reads) live in the process's own data
// dir under tmp/, never in the store.

export type StoredStream = { stream: Readable; size: number };

/** A file on this machine holding a stored object's content; `release` when done with it. */
export type LocalCopy = { path: string; release: () => Promise<void> };

/** A file being written on this machine before it is kept under `key`. */
export type StagedFile = {
  key: string;
  path: string;
  /** Keeps the staged file under its key (the staging file is gone afterwards). */
  keep: (contentType?: string) => Promise<void>;
  /** Drops the staged file (nothing is stored). */
  discard: () => Promise<void>;
};

export type FileStore = {
  /** `local` or `s3`, for logs and /metrics. */
  readonly kind: 'local' | 's3';
  /** Where the files are, for logs (no credentials). */
  readonly location: string;
  /** Stores small content held in memory (a cover image, an error-report segment). */
  putBytes(key: string, bytes: Uint8Array | string, contentType?: string): Promise<void>;
  /** A staging file for `key` on this machine, kept by `keep()`. */
  stage(key: string): Promise<StagedFile>;
  /** The object's content (or the bytes `start`..`end`, inclusive); null when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<StoredStream | null>;
  /** The object's size in bytes; null when there is none. */
  size(key: string): Promise<number | null>;
  /**
   * A file on this machine with the object's content, for readers that need to seek (XLSX):
   * the stored file itself when it is local, else a download into the scratch folder.
   */
  localCopy(key: string): Promise<LocalCopy | null>;
  /** Copies an object to a new key; false when the source is gone. */
  copy(from: string, to: string): Promise<boolean>;
  /** Deletes an object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** The keys directly or indirectly under `folder/`, sorted. */
  list(folder: string): Promise<string[]>;
  /** Deletes every object under `folder/`. */
  removeFolder(folder: string): Promise<void>;
  /** Checks the store can be reached (at start); throws a message naming the problem. */
  check(): Promise<void>;
};

/** A key is relative, with `/` separators, no empty, `.` or `..` segment. */
export const checkKey = (key: string): string => {
  const segments = key.split('/');
  if (
    key.length === 0 ||
    key.length > 512 ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
    /[\\\0]/.test(key)
  ) {
    throw new Error(`not a file key: ${JSON.stringify(key)}`);
  }
  return key;
};

/** A fresh scratch file name under `<scratchDir>/tmp/files/`. */
export const scratchFile = async (scratchDir: string, key: string): Promise<string> => {
  const directory = path.join(scratchDir, 'tmp', 'files');
  await mkdir(directory, { recursive: true });
  return path.join(directory, `${newUuid()}-${path.basename(key)}`);
};

/** Downloads a stream into a scratch file; the file is removed when the download fails. */
export const downloadTo = async (stream: Readable, file: string): Promise<void> => {
  try {
    await pipeline(stream, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
};

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';

/** The local directory `root` as a store: a key is the file `<root>/<key>`. */
export const createLocalFileStore = (root: string): FileStore => {
  const base = path.resolve(root);
  const fileOf = (key: string) => path.join(base, checkKey(key));
  const ensureParent = (file: string) => mkdir(path.dirname(file), { recursive: true });
  const walk = async (folder: string, prefix: string): Promise<string[]> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const keys: string[] = [];
    for (const entry of entries) {
      const key = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) keys.push(...(await walk(path.join(folder, entry.name), key)));
      // A file still being written (`.partial`) is not stored yet.
      else if (entry.isFile() && !entry.name.endsWith('.partial')) keys.push(key);
    }
    return keys;
  };

  return {
    kind: 'local',
    location: base,
    putBytes: async (key, bytes) => {
      const file = fileOf(key);
      await ensureParent(file);
      // Written beside and renamed: a reader never sees half a file.
      const partial = `${file}.${newUuid()}.partial`;
      try {
        await writeFile(partial, bytes);
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    // Staged in the store's own folder, so keeping it is a rename, never a copy of 700 MB.
    stage: async (key) => {
      const file = fileOf(key);
      await ensureParent(file);
      const partial = `${file}.${newUuid()}.partial`;
      return {
        key,
        path: partial,
        keep: () => rename(partial, file),
        discard: () => rm(partial, { force: true }),
      };
    },
    read: async (key, range) => {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        if (!range) return { stream: createReadStream(file), size };
        const end = Math.min(range.end, size - 1);
        return {
          stream: createReadStream(file, { start: range.start, end }),
          size: Math.max(0, end - range.start + 1),
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    size: async (key) => {
      try {
        return (await stat(fileOf(key))).size;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    localCopy: async (key) => {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      return { path: file, release: async () => undefined };
    },
    copy: async (from, to) => {
      const target = fileOf(to);
      await ensureParent(target);
      try {
        await copyFile(fileOf(from), target);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    remove: (key) => rm(fileOf(key), { force: true }),
    list: async (folder) => (await walk(fileOf(folder), checkKey(folder))).sort(),
    removeFolder: (folder) => rm(fileOf(folder), { recursive: true, force: true }),
    check: async () => {
      await mkdir(base, { recursive: true });
    },
  };
};
