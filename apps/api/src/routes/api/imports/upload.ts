import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { MESSAGES, ZImportUploadFieldsSchema } from '@ccp/schemas';
import type { TFieldErrors, TImportUploadFields } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import type { ImportFormat } from '../../../imports/reader.ts';
import { drainPart, readMultipart } from '../../../lib/multipart.ts';
import { contentMatches, extensionOf, headOf } from '../../../lib/sniff.ts';
import type { MultipartFilePart } from '../../../lib/multipart.ts';
import type { FileStore, StagedFile } from '../../../storage/index.ts';

// Reads the multipart upload of an import: the `file` part is streamed straight to a staging
// file on this machine (never held in memory) with the upload size limit; the text fields are
// collected. Nothing is validated beyond the file's type and size here. The route reads the
// staged file once more, then keeps it in the file store under imports/ (storage/) or drops it.

export type StoredUpload = {
  /** The staged file: `staged.path` to read it here, `keep()` to store it for the job. */
  staged: StagedFile;
  /** Its key in the file store, as the job stores it. */
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

/** Streams the upload to a staging file for `imports/<uuid>.<ext>`; answers it or the field errors. */
export const readImportUpload = async (
  request: FastifyRequest,
  { files, uuid, maxBytes }: { files: FileStore; uuid: string; maxBytes: number },
): Promise<ImportUpload> => {
  const errors: TFieldErrors = {};
  // Set by the file handler; typed wide so the checks after the upload are not narrowed away.
  let file = null as StoredUpload | null;

  const storeFile = async (part: MultipartFilePart, extension: ImportFormat) => {
    const relativePath = `imports/${uuid}.${extension}`;
    const staged = await files.stage(relativePath);
    let bytes = 0;
    part.stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    try {
      await pipeline(part.stream, createWriteStream(staged.path));
    } catch (error) {
      // A body cut short or a client gone: no partial file stays behind.
      await staged.discard();
      throw error;
    }
    if (part.stream.truncated) {
      await staged.discard();
      errors.file = [MESSAGES.fileTooLarge];
    } else if (bytes === 0) {
      await staged.discard();
      errors.file = [MESSAGES.importFileEmpty];
    } else if (!contentMatches(extension, await headOf(staged.path))) {
      // A renamed file (a spreadsheet called .csv, a picture called .xlsx) is refused unread.
      await staged.discard();
      errors.file = [extension === 'csv' ? MESSAGES.importCsvNotText : MESSAGES.importXlsxBroken];
    } else {
      file = {
        staged,
        relativePath,
        fileName: path.basename(part.filename),
        format: extension,
        bytes,
      };
    }
  };

  let rawFields: Record<string, string>;
  try {
    rawFields = await readMultipart(request, {
      fileSizeLimit: maxBytes,
      onFile: async (part) => {
        if (part.fieldname !== 'file' || file || errors.file) return drainPart(part.stream);
        const extension = extensionOf(part.filename);
        if (extension === 'csv' || extension === 'xlsx') return storeFile(part, extension);
        await drainPart(part.stream);
        if (extension === 'xls') errors.file = [MESSAGES.importXlsUnsupported];
        // A form posted without choosing a file sends an empty part with no name.
        else
          errors.file = [
            part.filename ? MESSAGES.importFileType : MESSAGES.learnerListFileRequired,
          ];
      },
    });
  } catch (error) {
    if (file) await file.staged.discard();
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
