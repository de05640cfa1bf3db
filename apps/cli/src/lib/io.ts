import { homedir } from 'node:os';

/** A stream we write to; process.stdout/stderr in production, a buffer in tests. */
export type OutStream = {
  write: (chunk: string, callback?: (error?: Error | null) => void) => boolean;
};

/**
 * Everything a command touches outside itself (gh's iostreams pattern): tests build one with
 * explicit TTY flags, so the interactive and CI branches run without a terminal.
 */
export type CliIo = {
  stdin: NodeJS.ReadableStream;
  stdout: OutStream;
  stderr: OutStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's width in columns on stderr; 0 or undefined when it reports none. */
  stderrColumns: number | undefined;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  homedir: string;
};

export const processIo = (): CliIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: process.stdin.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  // Read when asked: a resized terminal changes it.
  get stderrColumns() {
    return process.stderr.columns;
  },
  env: process.env,
  platform: process.platform,
  homedir: homedir(),
});

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** Data: what a script would capture. */
export const printOut = (io: CliIo, text: string): void => {
  io.stdout.write(line(text));
};

/** Messages, warnings and errors: for the person at the terminal, never mixed into data. */
export const printErr = (io: CliIo, text: string): void => {
  io.stderr.write(line(text));
};

export const printJson = (io: CliIo, value: unknown): void => {
  printOut(io, JSON.stringify(value, null, 2));
};

/** Reads stdin to its end (for --password-stdin). */
export const readAll = async (stdin: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};
