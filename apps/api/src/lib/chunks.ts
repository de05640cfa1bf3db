// Long lists of ids go to the database in pieces: one `in (…)` with tens of thousands of values
// passes SQLite's 32,766 bound variables or Postgres' 65,535 parameters and fails the request.

/** Ids per query: far inside both databases' parameter limits, and few round trips. */
export const ID_CHUNK = 1000;

export const chunks = <T>(items: readonly T[], size: number = ID_CHUNK): T[][] => {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(items.slice(start, start + size));
  }
  return out;
};

/** The rows of one query per chunk of `ids`, in order. */
export const selectInChunks = async <T, R>(
  ids: readonly T[],
  query: (part: T[]) => Promise<R[]>,
): Promise<R[]> => {
  const rows: R[] = [];
  for (const part of chunks(ids)) rows.push(...(await query(part)));
  return rows;
};
