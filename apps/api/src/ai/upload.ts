import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { AI_IMPORT_TYPES, MESSAGES } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import { newUuid } from '../lib/ids.ts';

// The AI import form, read as it streams in: text fields in memory, the `file` part straight to
// a temporary file (never held in memory), cut off at the size limit.

export type TAiImportType = (typeof AI_IMPORT_TYPES)[number];

export type TImportUpload = {
  path: string;
  filename: string;
  type: TAiImportType;
  bytes: number;
};

export type TImportForm = {
  fields: Record<string, string>;
  file: TImportUpload | null;
  /** Why the file part was refused (type or size), if it was. */
  fileError: string | null;
};

export const FILE_FIELD = 'file';

const typeOf = (filename: string): TAiImportType | null => {
  const extension = path.extname(filename).slice(1).toLowerCase();
  return (AI_IMPORT_TYPES as readonly string[]).includes(extension)
    ? (extension as TAiImportType)
    : null;
};

const drain = (stream: NodeJS.ReadableStream) =>
  pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() }));

/** Removes the upload's temporary file; safe to call on null. */
export const removeUpload = async (file: TImportUpload | null): Promise<void> => {
  if (file) await rm(file.path, { force: true });
};

/**
 * Reads the multipart form. The file's type comes from its name (AI_IMPORT_TYPES); a file of
 * another type is drained unread, one over `maxBytes` is cut off and deleted. The caller removes
 * the returned file when done.
 */
export const readImportForm = async (
  request: FastifyRequest,
  { dir, maxBytes }: { dir: string; maxBytes: number },
): Promise<TImportForm> => {
  const fields: Record<string, string> = {};
  let file: TImportUpload | null = null;
  let fileError: string | null = null;
  let writing: string | null = null;
  try {
    // throwFileSizeLimit: false lets us answer the 422 of spec §5 instead of a 413.
    const options = { limits: { fileSize: maxBytes }, throwFileSizeLimit: false };
    for await (const part of request.parts(options)) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const type = typeOf(part.filename);
      if (part.fieldname !== FILE_FIELD || file || fileError || !part.filename) {
        await drain(part.file);
        continue;
      }
      if (!type) {
        fileError = MESSAGES.aiFileType;
        await drain(part.file);
        continue;
      }
      await mkdir(dir, { recursive: true });
      writing = path.join(dir, `${newUuid()}.${type}`);
      let bytes = 0;
      part.file.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(part.file, createWriteStream(writing));
      if (part.file.truncated) {
        fileError = MESSAGES.fileTooLarge;
        await rm(writing, { force: true });
      } else if (bytes > 0) {
        file = { path: writing, filename: part.filename, type, bytes };
      } else await rm(writing, { force: true });
      writing = null;
    }
  } catch (error) {
    if (writing) await rm(writing, { force: true });
    await removeUpload(file);
    throw error;
  }
  return { fields, file, fileError };
};
