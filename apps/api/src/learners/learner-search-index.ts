import type { Db } from '../db/index.ts';
import type { LearnersTable } from '../db/types.ts';
import { VersionedCache, cacheOf } from './learner-page-cache.ts';

// A new search term without a read of the company's learners (issue 14; docs/decisions.md
// "Learners list at scale"): per company, live or archived, and per version of its learners, what
// a "contains" search looks at — lowercased "first last" and e-mail, the stored phone — in the
// list's order, as two long strings with the offset of each learner, and the uuids. A term is found with
// indexOf, a few milliseconds for 100,000 learners, and its matches come out in the list's order.
// The index is built with one read of the company's learners (what one new term cost before),
// kept only while the company searches (IDLE_MS), at most KEPT_CHARS in all.

/** A learner's place in the list's order (created_at desc, uuid desc). */
type Key = Pick<LearnersTable, 'created_at' | 'uuid'>;

/** Newest first, then by uuid descending: the databases' binary order of these ASCII texts. */
export const newestFirst = (a: Key, b: Key) =>
  a.created_at !== b.created_at
    ? a.created_at < b.created_at
      ? 1
      : -1
    : a.uuid < b.uuid
      ? 1
      : a.uuid > b.uuid
        ? -1
        : 0;

/** Ends each learner's texts; the fields of one learner are parted by FIELD_END. */
const LEARNER_END = '\u0001';
const FIELD_END = '\u0000';

/** One field of a learner, with the separators it may hold (an operator's SQL) made inert. */
const field = (text: string | null) =>
  (text ?? '').replaceAll(FIELD_END, '\uFFFD').replaceAll(LEARNER_END, '\uFFFD');

/** The company's learners as a search looks at them, in the list's order. */
export type SearchIndex = {
  count: number;
  /**
   * The uuids, each its own string: a match shares it (a slice of one long string would keep
   * the whole string alive as long as any search's matches are remembered).
   */
  uuids: string[];
  /** Per learner: lowercased "first last", FIELD_END, lowercased e-mail, LEARNER_END. */
  names: string;
  nameStarts: Int32Array;
  /** Per learner: the stored phone (E.164), LEARNER_END. */
  phones: string;
  phoneStarts: Int32Array;
};

type IndexedRow = Key & Pick<LearnersTable, 'first_name' | 'last_name' | 'email' | 'phone'>;

/** Joins each row's text, keeping where each starts (and one more: where the last ends). */
const joined = (rows: readonly IndexedRow[], textOf: (row: IndexedRow) => string) => {
  const starts = new Int32Array(rows.length + 1);
  const parts: string[] = new Array<string>(rows.length);
  let length = 0;
  rows.forEach((row, index) => {
    const text = textOf(row);
    starts[index] = length;
    parts[index] = text;
    length += text.length;
  });
  starts[rows.length] = length;
  // join makes one flat string (adding them up would make a tree of 100,000 pieces).
  return { text: parts.join(''), starts };
};

/** The index of rows read in any order. */
export const buildSearchIndex = (rows: IndexedRow[]): SearchIndex => {
  rows.sort(newestFirst);
  const names = joined(
    rows,
    (row) =>
      `${field(`${row.first_name} ${row.last_name}`).toLowerCase()}${FIELD_END}${field(row.email).toLowerCase()}${LEARNER_END}`,
  );
  const phones = joined(rows, (row) => `${field(row.phone)}${LEARNER_END}`);
  return {
    count: rows.length,
    uuids: rows.map((row) => row.uuid),
    names: names.text,
    nameStarts: names.starts,
    phones: phones.text,
    phoneStarts: phones.starts,
  };
};

/** Which learner the text at `position` belongs to (the last start at or before it). */
const learnerAt = (starts: Int32Array, count: number, position: number) => {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low;
};

/** Marks the learners whose text holds `needle`, one indexOf per match and one more. */
const mark = (
  text: string,
  starts: Int32Array,
  count: number,
  needle: string,
  hits: Uint8Array,
) => {
  let position = text.indexOf(needle);
  while (position !== -1) {
    const learner = learnerAt(starts, count, position);
    hits[learner] = 1;
    position = text.indexOf(needle, starts[learner + 1]);
  }
};

/** Can the index answer this term? (A term holding a separator is left to SQL.) */
export const indexable = (term: string) =>
  term.length > 0 && !term.includes(FIELD_END) && !term.includes(LEARNER_END);

/**
 * The uuids of the learners whose "first last" or e-mail contain `term` (case-insensitively) or
 * whose phone contains one of `phoneDigits`, in the list's order.
 */
export const searchIndex = (
  index: SearchIndex,
  term: string,
  phoneDigits: readonly string[],
): string[] => {
  const { count } = index;
  const hits = new Uint8Array(count);
  mark(index.names, index.nameStarts, count, term.toLowerCase(), hits);
  for (const digits of phoneDigits) mark(index.phones, index.phoneStarts, count, digits, hits);
  const uuids: string[] = [];
  for (let learner = 0; learner < count; learner += 1) {
    if (hits[learner]) uuids.push(index.uuids[learner]!);
  }
  return uuids;
};

/** What the indexes of all companies keep in all, in characters (~2 bytes at most each). */
const KEPT_CHARS = 30_000_000;
/** An index not searched for this long is let go (the idle server gives its memory back). */
const IDLE_MS = 120_000;

/** A uuid string costs about 60 characters' worth; each learner two offsets. */
const charsOf = (index: SearchIndex) => index.names.length + index.phones.length + 64 * index.count;

/** Reads the company's (non-)archived learners once: what a search looks at. */
const readIndex = async (db: Db, companyUuid: string, archived: boolean) => {
  const rows = await db
    .selectFrom('learners')
    .select(['created_at', 'uuid', 'first_name', 'last_name', 'email', 'phone'])
    .where('company_uuid', '=', companyUuid)
    .where('deleted_at', archived ? 'is not' : 'is', null)
    .execute();
  return buildSearchIndex(rows);
};

/** The search index of the company's learners at `version` (built once per version). */
export const searchIndexOf = (
  db: Db,
  companyUuid: string,
  archived: boolean,
  version: number,
): Promise<SearchIndex> =>
  cacheOf(
    db,
    'learner-search',
    () => new VersionedCache<SearchIndex>(charsOf, KEPT_CHARS, IDLE_MS),
  ).get(JSON.stringify([companyUuid, archived]), version, () =>
    readIndex(db, companyUuid, archived),
  );
