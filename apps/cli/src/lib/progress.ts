import type { CliIo } from './io.ts';

// Progress of long work on stderr: a bar redrawn in place on a terminal, plain lines otherwise
// (CI logs keep them; a bar would print hundreds of carriage returns). Never on stdout.

export type Progress = {
  /** `fraction` 0–1 draws a bar on a terminal; the plain line is printed at most every few seconds. */
  update: (text: string, fraction?: number) => void;
  /** Ends the bar (or prints the line) for good. */
  done: (text?: string) => void;
};

const BAR_WIDTH = 24;
const PLAIN_EVERY_MS = 2000;

export const createProgress = (
  io: CliIo,
  { tty, enabled = true, now = Date.now }: { tty: boolean; enabled?: boolean; now?: () => number },
): Progress => {
  if (!enabled) return { update: () => undefined, done: () => undefined };
  let lastPlain = 0;
  let lastText = '';
  let drawn = false;
  const bar = (fraction: number) => {
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * BAR_WIDTH);
    return `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${Math.floor(fraction * 100)
      .toString()
      .padStart(3)}%`;
  };
  return {
    update: (text, fraction) => {
      if (tty) {
        io.stderr.write(`\r\u001B[2K${fraction === undefined ? '' : `${bar(fraction)} `}${text}`);
        drawn = true;
        return;
      }
      const time = now();
      if (text === lastText || time - lastPlain < PLAIN_EVERY_MS) return;
      lastPlain = time;
      lastText = text;
      io.stderr.write(`${text}\n`);
    },
    done: (text) => {
      if (tty && drawn) io.stderr.write('\r\u001B[2K');
      drawn = false;
      if (text !== undefined && text !== lastText) io.stderr.write(`${text}\n`);
      lastText = '';
      lastPlain = 0;
    },
  };
};

export const formatCount = (value: number): string => value.toLocaleString('en-US');

export const formatBytes = (bytes: number): string =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} KB`;
