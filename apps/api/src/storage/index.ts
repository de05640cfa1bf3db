import { createLocalFileStore } from './file-store.ts';
import type { FileStore } from './file-store.ts';
import { createS3FileStore } from './s3-store.ts';
import type { StorageConfig } from './storage-config.ts';

export type { FileStore, LocalCopy, StagedFile, StoredStream } from './file-store.ts';
export { createLocalFileStore } from './file-store.ts';
export type { StorageConfig } from './storage-config.ts';

/** The store a config names; `scratchDir` is this process's data dir (staging, downloads). */
export const openFileStore = (config: StorageConfig, scratchDir: string): FileStore =>
  config.kind === 's3' ? createS3FileStore(config, scratchDir) : createLocalFileStore(config.root);
