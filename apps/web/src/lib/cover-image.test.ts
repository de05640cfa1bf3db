import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { coverFileIssue } from './cover-image.ts';

describe('coverFileIssue', () => {
  it('takes the spec’s image types, in any case', () => {
    for (const name of ['a.jpg', 'b.JPEG', 'c.svg', 'd.png', 'e.bmp', 'f.GIF']) {
      expect(coverFileIssue({ name, size: 10 })).toBeNull();
    }
  });

  it('refuses other types and files over 2 MB with the spec’s texts', () => {
    expect(coverFileIssue({ name: 'cover.webp', size: 10 })).toBe(MESSAGES.imageType);
    expect(coverFileIssue({ name: 'cover', size: 10 })).toBe(MESSAGES.imageType);
    expect(coverFileIssue({ name: 'big.png', size: 2 * 1024 * 1024 + 1 })).toBe(MESSAGES.imageSize);
    expect(coverFileIssue({ name: 'ok.png', size: 2 * 1024 * 1024 })).toBeNull();
  });
});
