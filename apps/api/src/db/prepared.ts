import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

import type { Db } from './index.ts';

// A query built and compiled once per database, then run with new values. For the statements a
// hot loop runs thousands of times (the scheduler's claim and finish of each lesson, the outbox
// row, a learner's channel identity): there Kysely's building and compiling cost about as much
// as SQLite's own work (40 µs against 4 µs for a look-up by key), while the SQL text, and so the
// driver's cached statement (db/index.ts), is the same every time.

type Compiled = { query: CompiledQuery; slots: number[] };

/** A marker value per parameter, unlikely to be a real value. */
const marker = (index: number) => `\u0000prepared:${index}`;

export type PreparedQuery<Args extends unknown[], Row> = {
  /** The compiled query with `args` in their places: to run now, or in a caller's transaction. */
  bind: (db: Db, ...args: Args) => CompiledQuery<Row>;
  /** Binds and runs it on `db`. */
  run: (db: Db, ...args: Args) => Promise<QueryResult<Row>>;
};

/**
 * `build` receives one marker per parameter and uses each as a plain value (a `where` operand,
 * a `set` or `values` value); the compiled query then takes `args` in their places. Values fixed
 * in `build` (a status literal) stay as they were compiled.
 */
export const preparedQuery = <Args extends unknown[], Row = unknown>(
  arity: Args['length'],
  build: (db: Db, ...markers: string[]) => Compilable<Row>,
): PreparedQuery<Args, Row> => {
  const compiled = new WeakMap<Db, Compiled>();
  const compile = (db: Db): Compiled => {
    const markers = Array.from({ length: arity }, (_, index) => marker(index));
    const query = build(db, ...markers).compile();
    const slots = query.parameters.map((value) => markers.indexOf(value as string));
    const missing = markers.findIndex((_, index) => !slots.includes(index));
    if (missing >= 0) throw new Error(`preparedQuery: parameter ${missing} is not used as a value`);
    return { query, slots };
  };
  const bind = (db: Db, ...args: Args): CompiledQuery<Row> => {
    let prepared = compiled.get(db);
    if (!prepared) {
      prepared = compile(db);
      compiled.set(db, prepared);
    }
    const { query, slots } = prepared;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index]!;
      return slot >= 0 ? args[slot] : value;
    });
    return { ...query, parameters };
  };
  return { bind, run: (db, ...args) => db.executeQuery(bind(db, ...args)) };
};

/** Runs compiled statements in one transaction (or just the one). */
export const writeRecords = async (db: Db, records: CompiledQuery[]): Promise<void> => {
  if (records.length === 0) return;
  if (records.length === 1) {
    await db.executeQuery(records[0]!);
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const record of records) await trx.executeQuery(record);
  });
};

/**
 * Most lists' `in (…)` lists have the size of a page (25 learners): under this many values a
 * query is compiled once per size, past it built each time (an import's batch of 1,000).
 */
const MAX_PREPARED_LIST = 100;

/**
 * A query with `arity` plain parameters and one list of values (an `in (…)`), compiled once per
 * length of the list: `build` receives the markers of the plain parameters, then one marker per
 * value of the list.
 */
export const preparedListQuery = <Args extends unknown[], Row = unknown>(
  arity: Args['length'],
  build: (db: Db, markers: string[], list: string[]) => Compilable<Row>,
) => {
  const bySize = new Map<number, PreparedQuery<unknown[], Row>>();
  const prepared = (size: number) => {
    let query = bySize.get(size);
    if (!query) {
      query = preparedQuery<unknown[], Row>(arity + size, (db, ...markers) =>
        build(db, markers.slice(0, arity), markers.slice(arity)),
      );
      bySize.set(size, query);
    }
    return query;
  };
  return {
    run: (db: Db, args: Args, list: readonly unknown[]): Promise<QueryResult<Row>> => {
      if (list.length > MAX_PREPARED_LIST) {
        const values = [...args, ...list];
        // Built for this call only: the markers take the values at once.
        return db.executeQuery(
          preparedQuery<unknown[], Row>(values.length, (handle, ...markers) =>
            build(handle, markers.slice(0, arity), markers.slice(arity)),
          ).bind(db, ...values),
        );
      }
      return prepared(list.length).run(db, ...args, ...list);
    },
  };
};
