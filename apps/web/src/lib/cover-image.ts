import { COVER_IMAGE_MAX, COVER_IMAGE_TYPES, MESSAGES } from '@ccp/schemas';

// The cover image rules of spec §5, checked in the browser before anything is sent (the server
// checks the bytes again): a jpg, jpeg, svg, png, bmp or gif of at most 500×500 px and 2 MB.

export const COVER_ACCEPT = COVER_IMAGE_TYPES.map((type) => `.${type}`).join(',');

const extensionOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';

/** The type and size rules; the message to show, or null. */
export const coverFileIssue = (file: Pick<File, 'name' | 'size'>): string | null => {
  if (!(COVER_IMAGE_TYPES as readonly string[]).includes(extensionOf(file.name))) {
    return MESSAGES.imageType;
  }
  if (file.size > COVER_IMAGE_MAX.bytes) return MESSAGES.imageSize;
  return null;
};

/** The size in pixels, as the browser decodes the image; null when it cannot. */
const imageSize = (file: Blob): Promise<{ width: number; height: number } | null> =>
  new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
      URL.revokeObjectURL(url);
    };
    image.onerror = () => {
      resolve(null);
      URL.revokeObjectURL(url);
    };
    image.src = url;
  });

/** Every rule, the dimensions included; the message to show, or null. */
export const checkCoverFile = async (file: File): Promise<string | null> => {
  const issue = coverFileIssue(file);
  if (issue) return issue;
  const size = await imageSize(file);
  if (!size) return MESSAGES.imageType;
  return size.width > COVER_IMAGE_MAX.width || size.height > COVER_IMAGE_MAX.height
    ? MESSAGES.imageDimensions
    : null;
};
