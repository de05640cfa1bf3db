import { Writable } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import Busboy from '@fastify/busboy';
import type { BusboyFileStream, BusboyHeaders, BusboyInstance } from '@fastify/busboy';
import { MESSAGES } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import { AppError, validationError } from './app-error.ts';

// Every multipart upload (learner import, course cover, AI import) is read here, straight from
// the request with busboy. @fastify/multipart hands its file streams over through a queue, so a
// body that ends inside a part ("Part terminated early") had already failed the stream before a
// route could listen: the route then waited forever with a file open. Here every stream is
// watched from the moment it exists, and the upload settles (fields, or one error) whatever the
// client sends or stops sending.

/** Milliseconds of silence from the client, in the middle of an upload, before it answers 408. */
export const UPLOAD_IDLE_TIMEOUT_MS = 30_000;

export type MultipartFilePart = {
  fieldname: string;
  /** The name the client gave, without any directory; '' when a form was posted without a file. */
  filename: string;
  mimeType: string;
  /** The part's bytes; `truncated` is set once it went past `fileSizeLimit`. */
  stream: BusboyFileStream;
};

export type ReadMultipartOptions = {
  /** Bytes of one file part; the rest is cut off and the stream marked `truncated`. */
  fileSizeLimit: number;
  /**
   * Consumes one file part: stores, buffers or drains its stream to the end. If the upload fails
   * it is destroyed with the error, so the handler's own pipeline rejects and it can clean up.
   */
  onFile: (part: MultipartFilePart) => Promise<void>;
};

export const malformedUpload = () => new AppError('BAD_REQUEST', MESSAGES.uploadMalformed);
export const uploadTimedOut = () => new AppError('REQUEST_TIMEOUT', MESSAGES.uploadTimeout);

/** Reads a part to its end, keeping nothing (busboy moves on only once a part is read). */
export const drainPart = (stream: Readable): Promise<void> =>
  pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() }));

const LIMITS = {
  // One file per form: the import, the cover or the source document.
  files: 1,
  fields: 50,
  parts: 100,
  fieldSize: 1024 * 1024,
  headerPairs: 100,
};

/**
 * Reads a multipart/form-data request: every file part goes to `onFile`, the text fields are
 * answered once the whole body was read and every `onFile` finished. A body without a boundary,
 * cut short or otherwise broken answers 400; a client silent for the idle timeout answers 408.
 * On failure every open part is destroyed and the handlers have settled before this rejects.
 */
export const readMultipart = (
  request: FastifyRequest,
  { fileSizeLimit, onFile }: ReadMultipartOptions,
): Promise<Record<string, string>> =>
  new Promise((resolve, reject) => {
    let busboy: BusboyInstance;
    try {
      busboy = Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { ...LIMITS, fileSize: fileSizeLimit },
      });
    } catch {
      // No boundary, or not multipart at all.
      reject(malformedUpload());
      return;
    }
    const raw = request.raw;
    const idleMs = request.server.uploadIdleTimeoutMs;
    const fields = new Map<string, string>();
    const handlers: Promise<void>[] = [];
    const open = new Set<Readable>();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;

    const cleanUp = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('close', onClose);
      raw.off('error', onRequestError);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanUp();
      raw.unpipe(busboy);
      busboy.removeAllListeners();
      busboy.on('error', () => {});
      for (const stream of open) stream.destroy(error);
      open.clear();
      // Whatever the client still sends is read and dropped, so the answer can be written.
      raw.resume();
      void Promise.allSettled(handlers).then(() => reject(error));
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(uploadTimedOut()), idleMs);
    };
    const onData = () => arm();
    // A request that closes before its end was read is a client that hung up.
    const onClose = () => {
      if (!raw.readableEnded) fail(malformedUpload());
    };
    const onRequestError = () => fail(malformedUpload());

    busboy.on('field', (name: string, value: string) => {
      // As for JSON bodies (lib/nul.ts): PostgreSQL text cannot hold NUL.
      if (name.includes('\u0000') || value.includes('\u0000')) {
        fail(validationError({ [name.replaceAll('\u0000', '')]: [MESSAGES.nulCharacter] }));
        return;
      }
      fields.set(name, value);
    });
    busboy.on(
      'file',
      (
        fieldname: string,
        stream: BusboyFileStream,
        filename: string,
        _encoding: string,
        mimeType: string,
      ) => {
        open.add(stream);
        // Busboy reports a part cut short on the part's stream: watch it before anyone reads it.
        stream.on('error', () => fail(malformedUpload()));
        stream.on('end', () => open.delete(stream));
        const part = { fieldname, filename, mimeType, stream };
        handlers.push(
          Promise.resolve()
            .then(() => onFile(part))
            .catch((error: unknown) => {
              fail(error instanceof Error ? error : new Error(String(error)));
            }),
        );
      },
    );
    busboy.on('error', () => fail(malformedUpload()));
    busboy.on('finish', () => {
      if (settled) return;
      cleanUp();
      void Promise.all(handlers).then(() => {
        if (settled) return;
        settled = true;
        resolve(Object.fromEntries(fields));
      });
    });

    raw.on('data', onData);
    raw.on('close', onClose);
    raw.on('error', onRequestError);
    arm();
    raw.pipe(busboy);
  });

/** True for a multipart/form-data request (with or without a usable boundary). */
export const isMultipart = (request: FastifyRequest): boolean =>
  /^\s*multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
