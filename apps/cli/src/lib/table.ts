export type TableColumn<Row> = {
  header: string;
  value: (row: Row) => string;
  align?: 'left' | 'right';
  /** ANSI styling for a cell, applied only when colour is on. */
  style?: (row: Row, text: string) => string;
};

export type TableOptions = { color: boolean };

// Only the few SGR codes the tables use; widths are measured before styling.
const SGR = { bold: [1, 22], dim: [2, 22], green: [32, 39], yellow: [33, 39], cyan: [36, 39] };
export type TColor = keyof typeof SGR;

export const paint = (color: TColor, text: string): string => {
  const [open, close] = SGR[color];
  return `\u001B[${open}m${text}\u001B[${close}m`;
};

const width = (text: string) => [...text].length;

/**
 * An aligned plain-text table: columns separated by two spaces, no trailing spaces. Without
 * colour it contains no escape codes, so it is safe to grep, diff or write to a log.
 */
export const renderTable = <Row>(
  rows: readonly Row[],
  columns: readonly TableColumn<Row>[],
  { color }: TableOptions,
): string => {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) =>
    Math.max(width(column.header), ...cells.map((cell) => width(cell[index] ?? ''))),
  );
  const pad = (text: string, index: number) => {
    const gap = ' '.repeat((widths[index] ?? 0) - width(text));
    return columns[index]?.align === 'right'
      ? { before: gap, after: '' }
      : { before: '', after: gap };
  };
  const renderLine = (texts: string[], styleOf: (text: string, index: number) => string) =>
    texts
      .map((text, index) => {
        const { before, after } = pad(text, index);
        return `${before}${styleOf(text, index)}${index === texts.length - 1 ? '' : after}`;
      })
      .join('  ')
      .trimEnd();

  const header = renderLine(
    columns.map((column) => column.header),
    (text) => (color ? paint('bold', text) : text),
  );
  const body = rows.map((row, rowIndex) =>
    renderLine(cells[rowIndex] ?? [], (text, index) => {
      const style = columns[index]?.style;
      return color && style ? style(row, text) : text;
    }),
  );
  return [header, ...body].join('\n');
};
