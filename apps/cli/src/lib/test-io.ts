import { PassThrough, Readable } from 'node:stream';

import { runCli } from '../cli.ts';
import { EXIT, reportError } from './errors.ts';
import type { TExitCode } from './errors.ts';
import type { CliIo, OutStream } from './io.ts';

// Test helpers (gh's iostreams.Test()): buffers for stdout/stderr and explicit TTY flags.

export type TestIoInit = Partial<Omit<CliIo, 'stdin' | 'stdout' | 'stderr'>> & {
  /** Text on stdin, then EOF. Without it stdin is a pipe that stays open and never writes. */
  stdin?: string;
};

export type TestIo = { io: CliIo; stdout: () => string; stderr: () => string };

const buffer = (): { stream: OutStream; text: () => string } => {
  let text = '';
  return {
    stream: {
      write: (chunk, callback) => {
        text += chunk;
        callback?.();
        return true;
      },
    },
    text: () => text,
  };
};

export const createTestIo = ({ stdin, ...init }: TestIoInit = {}): TestIo => {
  const out = buffer();
  const err = buffer();
  return {
    io: {
      stdin: stdin === undefined ? new PassThrough() : Readable.from([Buffer.from(stdin)]),
      stdout: out.stream,
      stderr: err.stream,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stderrColumns: 80,
      env: {},
      platform: 'linux',
      homedir: '/nonexistent-home',
      ...init,
    },
    stdout: out.text,
    stderr: err.text,
  };
};

export type RunResult = { code: TExitCode; stdout: string; stderr: string };

/** Runs `ccp <args>` in-process as index.ts would, answering the exit code and the output. */
export const runInProcess = async (args: string[], init: TestIoInit = {}): Promise<RunResult> => {
  const { io, stdout, stderr } = createTestIo(init);
  let code: TExitCode = EXIT.ok;
  try {
    await runCli(['node', 'ccp', ...args], io);
  } catch (error) {
    code = reportError(error, io);
  }
  return { code, stdout: stdout(), stderr: stderr() };
};
