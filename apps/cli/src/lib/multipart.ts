import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

// A multipart/form-data body streamed from disk, with its exact length (so the server and a
// proxy see a Content-Length) and a count of the file bytes sent, for the upload's progress.

export type MultipartFile = { field: string; path: string; fileName: string; contentType: string };

const quoted = (value: string) => value.replace(/["\r\n\\]/g, '_');

export const multipartBody = async (
  fields: Record<string, string | undefined>,
  file: MultipartFile,
  onBytes: (bytes: number) => void,
): Promise<{ body: ReadableStream; contentType: string; length: number }> => {
  const boundary = `----ccp${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  const head = Buffer.concat([
    ...parts,
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
    ),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = await stat(file.path);
  async function* generate() {
    yield head;
    for await (const chunk of createReadStream(file.path, { highWaterMark: 256 * 1024 })) {
      onBytes((chunk as Buffer).length);
      yield chunk as Buffer;
    }
    yield tail;
  }
  return {
    body: Readable.toWeb(Readable.from(generate())) as ReadableStream,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
  };
};
