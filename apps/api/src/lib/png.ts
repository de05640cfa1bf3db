import { crc32, deflateSync } from 'node:zlib';

// A PNG encoder for images the server draws itself (the Teams app's icons): 8-bit RGBA, no
// interlace, each row with filter 0 (https://www.w3.org/TR/png-3/ §11.2.2 IHDR, §11.2.4 IDAT).
// A few dozen lines instead of an image library for two icons of at most 192×192 pixels.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RGBA = 6;

const chunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  // The CRC covers the type and the data, not the length (§5.3).
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
};

/** An RGBA image: `pixels` holds width × height × 4 bytes, row by row from the top. */
export type RgbaImage = { width: number; height: number; pixels: Uint8Array };

/** The image as a PNG file. */
export const encodePng = ({ width, height, pixels }: RgbaImage): Buffer => {
  if (pixels.length !== width * height * 4) {
    throw new Error(`encodePng: ${width}×${height} needs ${width * height * 4} bytes`);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(RGBA, 9);
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row += 1) {
    // Byte 0 of each row is its filter type: 0, none.
    Buffer.from(pixels.buffer, pixels.byteOffset + row * stride, stride).copy(
      raw,
      row * (stride + 1) + 1,
    );
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
