import { describe, expect, it } from 'vitest';

import { uniqueCloneName } from './index.ts';

describe('uniqueCloneName', () => {
  it('numbers the copy when "X (copy)" is taken, so cloning twice gives two names', () => {
    expect(uniqueCloneName('Sales', ['Sales'])).toBe('Sales (copy)');
    expect(uniqueCloneName('Sales', ['Sales', 'Sales (copy)'])).toBe('Sales (copy 2)');
    expect(uniqueCloneName('Sales', ['sales (COPY)', 'Sales (copy 2)'])).toBe('Sales (copy 3)');
  });
});
