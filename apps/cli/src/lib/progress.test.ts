import { describe, expect, it } from 'vitest';

import { createProgress, fitLine } from './progress.ts';
import { createTestIo } from './test-io.ts';

// What a 40-column terminal shows after the bar was redrawn: rows as the terminal lays them out
// (a line longer than the width wraps; `\r` goes to the start of the row; `ESC[2K` clears it).
const screenRows = (written: string, columns: number): string[] => {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  for (let index = 0; index < written.length; index += 1) {
    const char = written[index]!;
    if (char === '\u001B') {
      // ESC [ digits letter: the only sequences the progress writes.
      const sequence = /^.\[(\d*)([A-Za-z])/.exec(written.slice(index))!;
      if (sequence[2] === 'K') rows[row] = [];
      index += sequence[0].length - 1;
    } else if (char === '\r') col = 0;
    else if (char === '\n') {
      row += 1;
      col = 0;
      rows[row] ??= [];
    } else {
      if (col === columns) {
        row += 1;
        col = 0;
        rows[row] ??= [];
      }
      rows[row]![col] = char;
      col += 1;
    }
  }
  return rows.map((cells) => cells.join('')).filter((text) => text.trim() !== '');
};

describe('progress on a terminal', () => {
  it('redraws one row at 40 columns however long the text (it stacked a row per update)', () => {
    const test = createTestIo({ stderrIsTTY: true, stderrColumns: 40 });
    const progress = createProgress(test.io, { tty: true });
    for (let rows = 0; rows <= 300; rows += 100) {
      progress.update(
        `Importing big.csv: ${rows}/300 rows · ${rows} created, 0 updated, 0 unchanged, 0 failed`,
        rows / 300,
      );
    }
    const rows = screenRows(test.stderr(), 40);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^██████████ 100% Importing big\.csv: 300…$/);
    progress.done('Done.');
    expect(screenRows(test.stderr(), 40)).toEqual(['Done.']);
  });

  it('keeps the full bar at 120 columns and cuts only what does not fit', () => {
    expect(fitLine('x'.repeat(200), 120)).toHaveLength(119);
    expect(fitLine('short', 120)).toBe('short');
    const test = createTestIo({ stderrIsTTY: true, stderrColumns: 120 });
    const progress = createProgress(test.io, { tty: true });
    progress.update('Uploading a.csv: 1 KB of 2 KB', 0.5);
    progress.update('Uploading a.csv: 2 KB of 2 KB', 1);
    expect(screenRows(test.stderr(), 120)).toEqual([
      `${'█'.repeat(24)} 100% Uploading a.csv: 2 KB of 2 KB`,
    ]);
  });

  it('prints plain lines when the terminal reports no width', () => {
    const test = createTestIo({ stderrIsTTY: true, stderrColumns: 0 });
    const progress = createProgress(test.io, { tty: true, now: () => 10_000 });
    progress.update('Checked 10 rows', 0.1);
    expect(test.stderr()).toBe('Checked 10 rows\n');
  });
});
