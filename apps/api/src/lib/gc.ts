// Explicit garbage collection during bulk work (issue 18, import memory). An import allocates a
// batch's rows, lookups and SQL parameters, keeps them across an await (the next batch is planned
// while this one commits) and drops them: with `npm start`'s small young generation
// (--max-semi-space-size=2) they survive two scavenges and are promoted, so the old generation
// fills with garbage that V8, growing the heap lazily, collects only past ~110 MB. Nothing the
// import keeps grows that fast; the heap did. `npm start` runs with --expose-gc, and the import
// asks for a full collection every IMPORT_GC_ROWS rows on each of its threads: memory stays flat
// for about a tenth more CPU. Without the flag (tests, `npm run dev`) this does nothing.

/** Rows between two explicit collections of an import thread. */
export const IMPORT_GC_ROWS = 10_000;

type Gc = () => void;

/** Answers a function to call with each batch's row count; it collects every `everyRows` rows. */
export const gcEveryRows = (everyRows: number = IMPORT_GC_ROWS): ((rows: number) => void) => {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (typeof gc !== 'function') return () => undefined;
  let since = 0;
  return (rows) => {
    since += rows;
    if (since < everyRows) return;
    since = 0;
    gc();
  };
};
