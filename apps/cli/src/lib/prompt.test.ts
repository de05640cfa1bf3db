import { describe, expect, it } from 'vitest';

import { UsageError } from './errors.ts';
import { createPrompter } from './prompt.ts';
import { createTestIo } from './test-io.ts';

describe('createPrompter', () => {
  it('refuses to prompt when not interactive, naming the flag, instead of waiting on stdin', async () => {
    // stdin is an open pipe that never writes: a real prompt would hang here.
    const { io } = createTestIo();
    const ask = await createPrompter(io, false);
    const error = await ask
      .text({ message: 'Email', flag: '--email <email>' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      'Missing --email <email>: ccp cannot prompt here (not a terminal, --no-input or CI).',
    );
    await expect(ask.secret({ message: 'Password', flag: '--password-stdin' })).rejects.toThrow(
      '--password-stdin',
    );
  });
});
