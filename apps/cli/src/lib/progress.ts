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
/** Below this many columns the bar is shorter, so some text still fits beside it. */
const NARROW = 60;
const NARROW_BAR_WIDTH = 10;
const PLAIN_EVERY_MS = 2000;

/**
 * The line cut to fit `columns - 1` (a line as wide as the terminal wraps on some terminals, and
 * `\r\u001B[2K` then clears only its last row: the bar stacked a line per update, issue 31).
 */
export const fitLine = (text: string, columns: number): string => {
  const chars = Array.from(text);
  const room = Math.max(1, columns - 1);
  return chars.length <= room ? text : `${chars.slice(0, room - 1).join('')}…`;
};

export const createProgress = (
  io: CliIo,
  { tty, enabled = true, now = Date.now }: { tty: boolean; enabled?: boolean; now?: () => number },
): Progress => {
  if (!enabled) return { update: () => undefined, done: () => undefined };
  let lastPlain = 0;
  let lastText = '';
  let drawn = false;
  // Read on every draw: the terminal may be resized while the import runs.
  const columns = () => io.stderrColumns ?? 0;
  const bar = (fraction: number) => {
    const width = columns() < NARROW ? NARROW_BAR_WIDTH : BAR_WIDTH;
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
    return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${Math.floor(fraction * 100)
      .toString()
      .padStart(3)}%`;
  };
  return {
    update: (text, fraction) => {
      // A terminal that reports no width gets the plain lines: nothing can be fitted to it.
      if (tty && columns() > 0) {
        const line = `${fraction === undefined ? '' : `${bar(fraction)} `}${text}`;
        io.stderr.write(`\r\u001B[2K${fitLine(line, columns())}`);
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
