import { COVER_IMAGE_MAX } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import type { UploadedFile } from '../../../lib/images.ts';
import { drainPart, readMultipart } from '../../../lib/multipart.ts';

export type CourseForm = { fields: Record<string, string>; image: UploadedFile | null };

/**
 * Reads a multipart course form: text fields, and the `image` file read with the 2 MB cover
 * limit (a bigger file arrives truncated and is refused, never stored). Other files are drained.
 * An empty file part (a form posted without choosing a file) counts as no image.
 */
export const readCourseForm = async (request: FastifyRequest): Promise<CourseForm> => {
  let image: UploadedFile | null = null;
  const fields = await readMultipart(request, {
    fileSizeLimit: COVER_IMAGE_MAX.bytes,
    onFile: async ({ fieldname, filename, stream }) => {
      if (fieldname !== 'image' || image) return drainPart(stream);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      if (bytes.length > 0 || stream.truncated) {
        image = { bytes, truncated: stream.truncated, filename };
      }
    },
  });
  return { fields, image };
};
