import { envFlag } from './config.ts';
import type { CliIo } from './io.ts';

// Decided once, here: @inquirer/prompts does not check for a terminal (it hangs on an open pipe)
// and ora prints colour codes into CI logs, so neither runs unless these say so.

export type ModeFlags = {
  /** --no-input (commander's `input: false`). */
  input?: boolean;
  json?: boolean;
};

export const isCi = (env: CliIo['env']): boolean => envFlag(env.CI);

/** Prompts only when a person can answer: stdin and stdout are terminals, and nothing opted out. */
export const canPrompt = (io: CliIo, flags: ModeFlags = {}): boolean =>
  io.stdinIsTTY &&
  io.stdoutIsTTY &&
  flags.input !== false &&
  !flags.json &&
  !envFlag(io.env.CCP_NO_INPUT) &&
  !isCi(io.env);

/**
 * Spinners on stderr only when it is a terminal of a known width and the output is for a person.
 * A terminal reporting 0 columns (or none) gets no spinner: ora divides by the width to know how
 * many lines to clear, and at 0 it wrote cursor codes without end (issue 18).
 */
export const canSpin = (io: CliIo, flags: ModeFlags = {}): boolean =>
  io.stderrIsTTY &&
  (io.stderrColumns ?? 0) > 0 &&
  !flags.json &&
  !isCi(io.env) &&
  io.env.TERM !== 'dumb';

/** Colour on a stream only when it is a terminal and NO_COLOR / TERM=dumb do not forbid it. */
export const canColor = (io: CliIo, stream: 'stdout' | 'stderr'): boolean => {
  const isTTY = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const { env } = io;
  if (env.NO_COLOR || env.TERM === 'dumb' || env.FORCE_COLOR === '0') return false;
  return isTTY;
};
