import { runCli } from './cli.ts';
import { EXIT, reportError } from './lib/errors.ts';
import type { TExitCode } from './lib/errors.ts';
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

process.on('SIGINT', () => {
  io.stderr.write('\nCancelled.\n');
  process.exit(EXIT.cancelled);
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

// Exit without waiting for idle keep-alive sockets, but only once piped output is flushed.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    stream.write('', () => resolve());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(exitCode);
