import type { CliIo } from './io.ts';

/**
 * Runs `task` under an ora spinner on stderr when `enabled` (see canSpin); otherwise runs it
 * silently: off a terminal ora would only print "- text" lines with colour codes into logs.
 * The spinner is always stopped before the task's result or error reaches the caller, so no
 * prompt or message is drawn over it.
 */
export const withSpinner = async <T>(
  io: CliIo,
  enabled: boolean,
  text: string,
  task: () => Promise<T>,
): Promise<T> => {
  if (!enabled) return task();
  const { default: ora } = await import('ora');
  const spinner = ora({
    text,
    stream: io.stderr as NodeJS.WritableStream,
    isEnabled: true,
    // Leave stdin alone: raw mode would swallow Ctrl-C while the request runs.
    discardStdin: false,
  }).start();
  try {
    return await task();
  } finally {
    spinner.stop();
  }
};
