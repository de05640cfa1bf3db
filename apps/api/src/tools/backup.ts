import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

import tar from 'tar-stream';

import { loadSqliteDriver } from '../db/sqlite-driver.ts';

// Backups of an SQLite installation (issue 18): one .tar.gz with a consistent copy of the
// database, taken online through SQLite's backup API while the server runs, and every other file
// of the data directory (uploads, import files and error reports, exports). A PostgreSQL
// installation backs its database up with pg_dump (README); the archive then holds the files.

export const DATABASE_FILE = 'ccp.sqlite';
const MANIFEST = 'ccp-backup.json';
const FORMAT = 1;
/** The database and SQLite's side files are never copied as files. */
const SQLITE_FILES = /^ccp\.sqlite(-wal|-shm|-journal)?$/;

export type BackupManifest = {
  format: number;
  created_at: string;
  database: 'sqlite' | 'none';
  files: number;
};

export class BackupError extends Error {}

/** Every file under `dir`, relative to it, except the database's own. */
const dataFiles = async (dir: string, prefix = ''): Promise<string[]> => {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await dataFiles(dir, relative)));
    else if (entry.isFile() && !(prefix === '' && SQLITE_FILES.test(entry.name)))
      found.push(relative);
  }
  return found.sort();
};

/** Adds one file to the archive and resolves once it is written. */
const addFile = (pack: tar.Pack, name: string, source: string, size: number) =>
  new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size }, (error) => (error ? reject(error) : resolve()));
    createReadStream(source).on('error', reject).pipe(entry);
  });

/**
 * Writes a backup of `dataDir` to `file`: `database/ccp.sqlite` (when `sqlite`) copied through
 * the backup API, so writes going on meanwhile leave a consistent copy, then `files/…`. The
 * archive appears under its name only once complete.
 */
export const backupDataDir = async (options: {
  dataDir: string;
  /**
   * Where the files are, when not in the data dir (CCP_FILES_DIR); null when they are in object
   * storage (CCP_STORAGE_URL), which the backup leaves to the bucket's own tools.
   */
  filesDir?: string | null;
  file: string;
  sqlite: boolean;
}): Promise<BackupManifest> => {
  const dataDir = path.resolve(options.dataDir);
  const filesDir = options.filesDir === null ? null : path.resolve(options.filesDir ?? dataDir);
  const file = path.resolve(options.file);
  const databaseFile = path.join(dataDir, DATABASE_FILE);
  if (options.sqlite && !existsSync(databaseFile))
    throw new BackupError(`No database at ${databaseFile}: is CCP_DATA_DIR right?`);
  await mkdir(path.dirname(file), { recursive: true });
  const work = await mkdtemp(path.join(path.dirname(file), '.ccp-backup-'));
  const partial = `${file}.partial`;
  try {
    const copy = path.join(work, DATABASE_FILE);
    if (options.sqlite) {
      const source = new (loadSqliteDriver())(databaseFile, {
        readonly: true,
        fileMustExist: true,
      });
      try {
        await source.backup(copy);
      } finally {
        source.close();
      }
    }
    const files = filesDir && existsSync(filesDir) ? await dataFiles(filesDir) : [];
    const manifest: BackupManifest = {
      format: FORMAT,
      created_at: new Date().toISOString(),
      database: options.sqlite ? 'sqlite' : 'none',
      files: files.length,
    };
    const pack = tar.pack();
    const written = pipeline(pack, createGzip(), createWriteStream(partial));
    pack.entry({ name: MANIFEST }, `${JSON.stringify(manifest, null, 2)}\n`);
    if (options.sqlite)
      await addFile(pack, `database/${DATABASE_FILE}`, copy, (await stat(copy)).size);
    for (const relative of files) {
      const source = path.join(filesDir!, relative);
      // A file removed since the listing (an import finished) is simply not in the backup.
      const size = await stat(source).then(
        (info) => info.size,
        () => null,
      );
      if (size !== null) await addFile(pack, `files/${relative}`, source, size);
    }
    pack.finalize();
    await written;
    await rename(partial, file);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
};

/** An archive path that stays inside its folder, or null. */
const safeRelative = (name: string): string | null => {
  const normal = path.posix.normalize(name);
  if (normal.startsWith('/') || normal.startsWith('..') || normal.includes('\0')) return null;
  return normal;
};

/** Writes a backup's files into `staging` (database at its root, files/… below) and answers its manifest. */
const readEntries = async (
  extract: tar.Extract,
  staging: string,
): Promise<BackupManifest | null> => {
  let manifest: BackupManifest | null = null;
  for await (const entry of extract) {
    const name = safeRelative(entry.header.name);
    if (!name) throw new BackupError(`The backup holds an unsafe path: ${entry.header.name}`);
    if (entry.header.type !== 'file') {
      entry.resume();
      continue;
    }
    if (name === MANIFEST) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
      continue;
    }
    const target =
      name === `database/${DATABASE_FILE}`
        ? path.join(staging, DATABASE_FILE)
        : name.startsWith('files/')
          ? path.join(staging, name.slice('files/'.length))
          : null;
    if (!target) {
      entry.resume();
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await pipeline(entry, createWriteStream(target));
  }
  return manifest;
};

/**
 * Puts a backup back into `dataDir`. An existing data directory with a database is kept unless
 * `force`; with `force` it is moved aside to `<dataDir>.before-restore-<time>`, never deleted.
 * The server must be stopped. Answers the manifest and where the old data went, if anywhere.
 */
export const restoreDataDir = async (options: {
  file: string;
  dataDir: string;
  force?: boolean;
}): Promise<{ manifest: BackupManifest; movedAside: string | null }> => {
  const dataDir = path.resolve(options.dataDir);
  const file = path.resolve(options.file);
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}.`);
  if (existsSync(path.join(dataDir, DATABASE_FILE)) && !options.force)
    throw new BackupError(
      `${dataDir} already holds a database. Stop the server, then run the restore again with --force: the current data directory is moved aside, not deleted.`,
    );
  await mkdir(path.dirname(dataDir), { recursive: true });
  const staging = await mkdtemp(`${dataDir}.restoring-`);
  try {
    const extract = tar.extract();
    const reading = pipeline(createReadStream(file), createGunzip(), extract);
    // Awaited after the entries; a broken file surfaces there or in the loop, as one error.
    reading.catch(() => undefined);
    let manifest: BackupManifest | null = null;
    try {
      manifest = await readEntries(extract, staging);
      await reading;
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(
        `${file} is not a CCP backup, or it is damaged (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    if (!manifest || manifest.format !== FORMAT)
      throw new BackupError(`${file} is not a CCP backup (no ${MANIFEST} of format ${FORMAT}).`);
    if (manifest.database === 'sqlite') {
      // The copy must open as a database, or nothing is replaced.
      const check = new (loadSqliteDriver())(path.join(staging, DATABASE_FILE), {
        fileMustExist: true,
      });
      try {
        const result = String(check.pragma('quick_check', { simple: true }));
        if (result !== 'ok') throw new BackupError(`The backup's database is damaged: ${result}`);
      } finally {
        check.close();
      }
    }
    let movedAside: string | null = null;
    if (existsSync(dataDir) && (await readdir(dataDir)).length === 0) await rmdir(dataDir);
    if (existsSync(dataDir)) {
      movedAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(dataDir, movedAside);
    }
    await rename(staging, dataDir);
    return { manifest, movedAside };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
};
