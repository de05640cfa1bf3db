import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { MESSAGES, ZImportUploadFieldsSchema } from '@ccp/schemas';
import type { TFieldErrors, TImportUploadFields } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import type { ImportFormat } from '../../../imports/reader.ts';

// Reads the multipart upload of an import: the `file` part is streamed straight to disk under
// <dataDir>/imports (never held in memory) with the upload size limit; the text fields are
// collected. Nothing is validated beyond the file's type and size here.

export type StoredUpload = {
  /** Absolute path of the stored file. */
  path: string;
  /** Path relative to the data dir, as the job stores it. */
  relativePath: string;
  fileName: string;
  format: ImportFormat;
  bytes: number;
};

export type ImportUpload = {
  file: StoredUpload | null;
  fields: TImportUploadFields;
  errors: TFieldErrors;
};

const extensionOf = (fileName: string) => path.extname(fileName).slice(1).toLowerCase();

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const _chunk of stream) {
    // Discard: busboy moves to the next part only once this one is read.
  }
};

/** Streams the upload to `<dataDir>/imports/<uuid>.<ext>`; answers the file or the field errors. */
export const readImportUpload = async (
  request: FastifyRequest,
  { dataDir, uuid, maxBytes }: { dataDir: string; uuid: string; maxBytes: number },
): Promise<ImportUpload> => {
  const rawFields: Record<string, string> = {};
  const errors: TFieldErrors = {};
  let file: StoredUpload | null = null;
  const directory = path.join(dataDir, 'imports');
  await mkdir(directory, { recursive: true });

  try {
    // throwFileSizeLimit: false lets us answer the spec's 422 text instead of a bare 413.
    const options = { limits: { fileSize: maxBytes }, throwFileSizeLimit: false };
    for await (const part of request.parts(options)) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') rawFields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file || errors.file) {
        await drain(part.file);
        continue;
      }
      const extension = extensionOf(part.filename);
      if (extension === 'xls' || extension === 'csv' || extension === 'xlsx') {
        if (extension === 'xls') {
          await drain(part.file);
          errors.file = [MESSAGES.importXlsUnsupported];
          continue;
        }
        const relativePath = `imports/${uuid}.${extension}`;
        const target = path.join(dataDir, relativePath);
        let bytes = 0;
        part.file.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        await pipeline(part.file, createWriteStream(target));
        if (part.file.truncated) {
          await rm(target, { force: true });
          errors.file = [MESSAGES.fileTooLarge];
        } else if (bytes === 0) {
          await rm(target, { force: true });
          errors.file = [MESSAGES.importFileEmpty];
        } else {
          file = {
            path: target,
            relativePath,
            fileName: path.basename(part.filename),
            format: extension,
            bytes,
          };
        }
        continue;
      }
      await drain(part.file);
      // A form posted without choosing a file sends an empty part with no name.
      errors.file = [part.filename ? MESSAGES.importFileType : MESSAGES.learnerListFileRequired];
    }
  } catch (error) {
    if (file) await rm(file.path, { force: true });
    throw error;
  }

  if (!file && !errors.file) errors.file = [MESSAGES.learnerListFileRequired];
  const parsed = ZImportUploadFieldsSchema.safeParse(rawFields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.') || 'body';
      (errors[key] ??= []).push(issue.message);
    }
  }
  return { file, fields: parsed.success ? parsed.data : {}, errors };
};
