import { describe, expect, it } from 'vitest';

import { renderTable } from './table.ts';
import type { TableColumn } from './table.ts';

type Row = { name: string; count: number };
const columns: TableColumn<Row>[] = [
  {
    header: 'NAME',
    value: (row) => row.name,
    style: (_row, text) => `\u001B[32m${text}\u001B[39m`,
  },
  { header: 'COUNT', value: (row) => String(row.count), align: 'right' },
];
const rows: Row[] = [
  { name: 'Negotiation basics', count: 5 },
  { name: 'Café', count: 120 },
];

describe('renderTable', () => {
  it('aligns columns with two spaces, right-aligns numbers, counts characters not bytes', () => {
    expect(renderTable(rows, columns, { color: false })).toBe(
      ['NAME                COUNT', 'Negotiation basics      5', 'Café                  120'].join(
        '\n',
      ),
    );
  });

  it('contains no ANSI escape codes without colour', () => {
    expect(renderTable(rows, columns, { color: false })).not.toContain('\u001B');
  });

  it('styles the header and cells only when colour is on, keeping the alignment', () => {
    const coloured = renderTable(rows, columns, { color: true });
    expect(coloured).toContain('\u001B[1mNAME\u001B[22m');
    expect(coloured).toContain('\u001B[32mNegotiation basics\u001B[39m');
    // eslint-disable-next-line no-control-regex -- stripping the escapes
    expect(coloured.replace(/\u001B\[\d+m/g, '')).toBe(
      renderTable(rows, columns, { color: false }),
    );
  });

  it('prints only the header for no rows', () => {
    expect(renderTable([], columns, { color: false })).toBe('NAME  COUNT');
  });
});
