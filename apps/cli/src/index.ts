import { runCli } from './cli.ts';
import { EXIT, reportError } from './lib/errors.ts';
import type { TExitCode } from './lib/errors.ts';
import { takeInterruptHandler } from './lib/interrupt.ts';
import { processIo } from './lib/io.ts';

// The only place that exits: commands throw, this maps what they threw to an exit code.

const io = processIo();

// The reader went away (`ccp … | head`): nothing more can be shown, so stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}

// Exit without waiting for idle keep-alive sockets, but only once piped output is flushed.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    stream.write('', () => resolve());
  });
const exitFlushed = async (code: TExitCode) => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
};

// Ctrl-C: a command with something to settle first (an import running on the server: stop it or
// not) says so through lib/interrupt.ts; a second Ctrl-C, or none to settle, exits at once.
process.on('SIGINT', () => {
  const handler = takeInterruptHandler();
  if (!handler) {
    io.stderr.write('\nCancelled.\n');
    process.exit(EXIT.cancelled);
  }
  io.stderr.write('\n');
  void handler()
    .catch((error: unknown) => reportError(error, io))
    .finally(() => exitFlushed(EXIT.cancelled));
});
// `kill`, a CI runner's timeout, a closing terminal: stop now, even at a prompt or under a
// spinner (their libraries would otherwise keep the process up or re-raise after cleanup).
process.on('SIGTERM', () => {
  io.stderr.write('\nStopped.\n');
  process.exit(EXIT.terminated);
});

let exitCode: TExitCode = EXIT.ok;
try {
  await runCli(process.argv, io);
} catch (error) {
  exitCode = reportError(error, io);
}

await exitFlushed(exitCode);
