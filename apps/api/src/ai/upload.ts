import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { AI_IMPORT_TYPES, MESSAGES } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import { newUuid } from '../lib/ids.ts';
import { drainPart, readMultipart } from '../lib/multipart.ts';
import { contentMatches, extensionOf, headOf } from '../lib/sniff.ts';
import type { MultipartFilePart } from '../lib/multipart.ts';

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
  const extension = extensionOf(filename);
  return (AI_IMPORT_TYPES as readonly string[]).includes(extension)
    ? (extension as TAiImportType)
    : null;
};

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
  // Set by the file handler; typed wide so the checks after the upload are not narrowed away.
  let file = null as TImportUpload | null;
  let fileError = null as string | null;

  const storeFile = async (part: MultipartFilePart, type: TAiImportType) => {
    await mkdir(dir, { recursive: true });
    const target = path.join(dir, `${newUuid()}.${type}`);
    let bytes = 0;
    part.stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    try {
      await pipeline(part.stream, createWriteStream(target));
    } catch (error) {
      // A body cut short or a client gone: no partial file stays behind.
      await rm(target, { force: true });
      throw error;
    }
    if (part.stream.truncated) {
      fileError = MESSAGES.fileTooLarge;
      await rm(target, { force: true });
    } else if (bytes > 0 && !contentMatches(type, await headOf(target))) {
      // Not what its name says: refused before a parser or the transcription service sees it.
      fileError = MESSAGES.aiFileUnreadable;
      await rm(target, { force: true });
    } else if (bytes > 0) {
      file = { path: target, filename: part.filename, type, bytes };
    } else await rm(target, { force: true });
  };

  try {
    const fields = await readMultipart(request, {
      fileSizeLimit: maxBytes,
      onFile: async (part) => {
        if (part.fieldname !== FILE_FIELD || file || fileError || !part.filename) {
          return drainPart(part.stream);
        }
        const type = typeOf(part.filename);
        if (type) return storeFile(part, type);
        fileError = MESSAGES.aiFileType;
        return drainPart(part.stream);
      },
    });
    return { fields, file, fileError };
  } catch (error) {
    await removeUpload(file);
    throw error;
  }
};
