import path from 'node:path';

import { loadConfig } from '../config.ts';
import { BackupError, backupDataDir, restoreDataDir } from './backup.ts';

// npm run backup -- <file>            a backup of CCP_DATA_DIR (the server may keep running)
// npm run restore -- <file> [--force] puts one back into CCP_DATA_DIR (the server stopped)

const USAGE = `Usage:
  npm run backup -- <file.tar.gz>
  npm run restore -- <file.tar.gz> [--force]
Both use CCP_DATA_DIR (default ./data). On PostgreSQL (DATABASE_URL) the backup holds the data
directory's files only: back the database up with pg_dump (see README, "Backups").`;

const main = async () => {
  const [command, ...rest] = process.argv.slice(2);
  const force = rest.includes('--force');
  const file = rest.find((argument) => !argument.startsWith('--'));
  if ((command !== 'backup' && command !== 'restore') || !file) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  const sqlite = config.database.dialect === 'sqlite';
  const { storage } = config;
  if (command === 'backup') {
    const manifest = await backupDataDir({
      dataDir: config.dataDir,
      filesDir: storage.kind === 'local' ? storage.root : null,
      file,
      sqlite,
    });
    process.stdout.write(
      `Backed up ${sqlite ? 'the database and ' : ''}${manifest.files} file(s) of ${config.dataDir} to ${path.resolve(file)}\n`,
    );
    if (!sqlite)
      process.stdout.write(
        'The database is PostgreSQL: back it up with pg_dump (README, "Backups").\n',
      );
    if (storage.kind === 's3')
      process.stdout.write(
        `The files are in object storage (s3://${storage.bucket}/${storage.prefix}): back the bucket up with its own tools (README, "Backups").\n`,
      );
    return;
  }
  if (storage.kind === 'local' && storage.root !== config.dataDir)
    throw new BackupError(
      'CCP_FILES_DIR is set: restore into a data dir without it (CCP_FILES_DIR unset), then copy its files to the shared folder.',
    );
  const { manifest, movedAside } = await restoreDataDir({ file, dataDir: config.dataDir, force });
  process.stdout.write(
    `Restored ${manifest.database === 'sqlite' ? 'the database and ' : ''}${manifest.files} file(s) of the backup of ${manifest.created_at} into ${config.dataDir}\n`,
  );
  if (movedAside) process.stdout.write(`The previous data directory is now ${movedAside}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof BackupError
      ? `${error.message}\n`
      : `The ${process.argv[2] ?? 'backup'} failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
