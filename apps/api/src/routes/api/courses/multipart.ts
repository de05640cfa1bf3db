import { COVER_IMAGE_MAX } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import type { UploadedFile } from '../../../lib/images.ts';

export type CourseForm = { fields: Record<string, string>; image: UploadedFile | null };

/**
 * Reads a multipart course form: text fields, and the `image` file streamed with the 2 MB cover
 * limit (a bigger file arrives truncated and is refused, never stored). Other files are drained.
 * An empty file part (a form posted without choosing a file) counts as no image.
 */
export const readCourseForm = async (request: FastifyRequest): Promise<CourseForm> => {
  const fields: Record<string, string> = {};
  let image: UploadedFile | null = null;
  // throwFileSizeLimit: false lets us answer the 422 of spec §5 instead of a 413.
  const options = { limits: { fileSize: COVER_IMAGE_MAX.bytes }, throwFileSizeLimit: false };
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      if (part.fieldname === 'image' && !image && (bytes.length > 0 || part.file.truncated)) {
        image = { bytes, truncated: part.file.truncated, filename: part.filename };
      }
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, image };
};
