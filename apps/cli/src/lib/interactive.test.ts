import { describe, expect, it } from 'vitest';

import { canColor, canPrompt, canSpin } from './interactive.ts';
import { createTestIo } from './test-io.ts';

const terminal = { stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true };

describe('canPrompt', () => {
  it('prompts when stdin and stdout are terminals and nothing opts out', () => {
    expect(canPrompt(createTestIo(terminal).io)).toBe(true);
  });

  it.each([
    ['stdin is not a terminal', { ...terminal, stdinIsTTY: false }, {}],
    ['stdout is not a terminal', { ...terminal, stdoutIsTTY: false }, {}],
    ['CI is set', { ...terminal, env: { CI: 'true' } }, {}],
    ['CCP_NO_INPUT is set', { ...terminal, env: { CCP_NO_INPUT: '1' } }, {}],
    ['--no-input', terminal, { input: false }],
    ['--json', terminal, { json: true }],
  ])('never prompts when %s', (_reason, init, flags) => {
    expect(canPrompt(createTestIo(init).io, flags)).toBe(false);
  });

  it('still prompts with CI=false or CCP_NO_INPUT=0', () => {
    expect(
      canPrompt(createTestIo({ ...terminal, env: { CI: 'false', CCP_NO_INPUT: '0' } }).io),
    ).toBe(true);
  });
});

describe('canSpin', () => {
  it('spins only on a terminal stderr, never for --json, in CI or on TERM=dumb', () => {
    expect(canSpin(createTestIo(terminal).io)).toBe(true);
    expect(canSpin(createTestIo({ ...terminal, stderrIsTTY: false }).io)).toBe(false);
    expect(canSpin(createTestIo(terminal).io, { json: true })).toBe(false);
    expect(canSpin(createTestIo({ ...terminal, env: { CI: '1' } }).io)).toBe(false);
    expect(canSpin(createTestIo({ ...terminal, env: { TERM: 'dumb' } }).io)).toBe(false);
  });

  it('never spins in a terminal of zero or unknown width', () => {
    expect(canSpin(createTestIo({ ...terminal, stderrColumns: 0 }).io)).toBe(false);
    expect(canSpin(createTestIo({ ...terminal, stderrColumns: undefined }).io)).toBe(false);
    expect(canSpin(createTestIo({ ...terminal, stderrColumns: 1 }).io)).toBe(true);
  });
});

describe('canColor', () => {
  it('colours a terminal stream unless NO_COLOR, FORCE_COLOR=0 or TERM=dumb', () => {
    expect(canColor(createTestIo(terminal).io, 'stdout')).toBe(true);
    expect(canColor(createTestIo({ ...terminal, stdoutIsTTY: false }).io, 'stdout')).toBe(false);
    expect(canColor(createTestIo({ ...terminal, env: { NO_COLOR: '1' } }).io, 'stdout')).toBe(
      false,
    );
    expect(canColor(createTestIo({ ...terminal, env: { FORCE_COLOR: '0' } }).io, 'stderr')).toBe(
      false,
    );
    expect(canColor(createTestIo({ ...terminal, env: { TERM: 'dumb' } }).io, 'stderr')).toBe(false);
  });
});
