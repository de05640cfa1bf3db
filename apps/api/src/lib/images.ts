import path from 'node:path';

import { COVER_IMAGE_MAX, COVER_IMAGE_TYPES, MESSAGES } from '@ccp/schemas';
import { imageSize } from 'image-size';

import type { FileStore } from '../storage/index.ts';
import { newToken } from './ids.ts';
import { sanitizeSvg } from './svg.ts';

// Cover images (spec §5): checked by their bytes, never by name or declared type, and stored
// in the file store under uploads/covers/ (storage/), which routes/covers.ts serves at
// /uploads/covers/. Covers are shown by <img>, which sends no bearer token, so their URLs are
// capabilities: 256 random bits per name (issue 11 §9), never listed, gone when the course is
// deleted.

export type CoverImageType = 'jpg' | 'png' | 'gif' | 'bmp' | 'svg';
export type InspectedImage = { type: CoverImageType; width: number; height: number };

/** An uploaded file as read from the request; `truncated` when it went past the size limit. */
export type UploadedFile = { bytes: Buffer; truncated: boolean; filename: string };

export const COVERS_URL_PREFIX = '/uploads/covers/';

const ACCEPTED = new Set<string>(COVER_IMAGE_TYPES);

/** The type and pixel size read from an image's bytes; null for anything else or unreadable. */
export const inspectImage = (bytes: Uint8Array): InspectedImage | null => {
  try {
    const size = imageSize(bytes);
    const type = size.type;
    const { width, height } = size;
    if (!type || !ACCEPTED.has(type)) return null;
    if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) {
      return null;
    }
    return { type: type as CoverImageType, width, height };
  } catch {
    return null;
  }
};

/** A checked cover: `bytes` are what to store (an SVG rebuilt from the allow-list). */
export type CoverCheck =
  { ok: true; image: InspectedImage; bytes: Uint8Array } | { ok: false; message: string };

/** Spec §5: at most 2 MB, one of the accepted types, at most 500×500 pixels. */
export const checkCoverImage = (upload: UploadedFile): CoverCheck => {
  if (upload.truncated || upload.bytes.length > COVER_IMAGE_MAX.bytes) {
    return { ok: false, message: MESSAGES.imageSize };
  }
  let bytes: Uint8Array = upload.bytes;
  let image = inspectImage(bytes);
  if (image?.type === 'svg') {
    // Checked again after cleaning: what is stored must still be an SVG of an allowed size.
    const clean = sanitizeSvg(bytes);
    bytes = clean ?? Buffer.alloc(0);
    image = clean ? inspectImage(clean) : null;
  }
  if (!image) return { ok: false, message: MESSAGES.imageType };
  if (image.width > COVER_IMAGE_MAX.width || image.height > COVER_IMAGE_MAX.height) {
    return { ok: false, message: MESSAGES.imageDimensions };
  }
  return { ok: true, image, bytes };
};

const COVERS_FOLDER = 'uploads/covers';

/** The MIME type a stored cover is served with, by its extension. */
export const coverContentType = (name: string): string =>
  ({
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    bmp: 'image/bmp',
    svg: 'image/svg+xml',
  })[path.extname(name).slice(1)] ?? 'application/octet-stream';

/** The store key of a cover file name we generated; null for anything else (no separators, no dot-dot). */
export const coverKeyOf = (name: string): string | null =>
  /^[\w-]+\.[a-z]+$/.test(name) ? `${COVERS_FOLDER}/${name}` : null;

/**
 * The store key behind a stored cover URL (`/uploads/covers/<name>`, some rows lack the leading
 * slash), or null for anything that is not one of ours.
 */
const keyOf = (url: string): string | null => {
  const normal = `/${url.replace(/^\/+/, '')}`;
  return normal.startsWith(COVERS_URL_PREFIX)
    ? coverKeyOf(normal.slice(COVERS_URL_PREFIX.length))
    : null;
};

/** Stores a checked cover under a new name; answers its URL path. */
export const storeCoverImage = async (
  files: FileStore,
  bytes: Uint8Array,
  type: CoverImageType,
): Promise<string> => {
  const name = `${newToken()}.${type}`;
  await files.putBytes(`${COVERS_FOLDER}/${name}`, bytes, coverContentType(name));
  return `${COVERS_URL_PREFIX}${name}`;
};

/** Copies a stored cover to a new name (for a cloned course); null when there is none. */
export const copyCoverImage = async (
  files: FileStore,
  url: string | null,
): Promise<string | null> => {
  const source = url ? keyOf(url) : null;
  if (!source) return null;
  const name = `${newToken()}${path.extname(source)}`;
  // The file is gone (e.g. removed by hand): the copy simply has no cover.
  if (!(await files.copy(source, `${COVERS_FOLDER}/${name}`))) return null;
  return `${COVERS_URL_PREFIX}${name}`;
};

/** Removes a stored cover; missing files and foreign URLs are ignored. */
export const removeCoverImage = async (files: FileStore, url: string | null): Promise<void> => {
  const key = url ? keyOf(url) : null;
  if (key) await files.remove(key);
};
