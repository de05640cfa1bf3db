// The separator of an import CSV, guessed the same way by the server, the CLI's dry run and the
// upload page's preview: the most frequent of `,` `;` and tab outside quotes on the first line.

export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type TCsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** The separator of the first line of `text` (`,` when it has none). */
export const guessCsvDelimiter = (text: string): TCsvDelimiter => {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (CSV_DELIMITERS as readonly string[]).includes(char)) {
      counts.set(char, (counts.get(char) ?? 0) + 1);
    }
  }
  let best: TCsvDelimiter = ',';
  for (const delimiter of CSV_DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
};
