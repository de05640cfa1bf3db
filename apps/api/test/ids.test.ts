import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { newOrderedUuid } from '../src/lib/ids.ts';

describe('newOrderedUuid', () => {
  it('makes version 7 UUIDs that sort in the order they were made, within a millisecond too', () => {
    // Ahead of any id this worker made before (the counter never goes back in time).
    const at = Date.now() + 1000;
    // 5,000 in the same millisecond: more than the 4,096 its counter holds.
    const ids = Array.from({ length: 5000 }, () => newOrderedUuid(at));
    ids.push(newOrderedUuid(at + 1), newOrderedUuid(at - 5));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(z.string().uuid().safeParse(id).success).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    // The time is readable from the id: the first 48 bits.
    expect(Number.parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });
});
