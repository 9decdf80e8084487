import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query of fixed shape, built with Kysely once per database and then run with new values.
 * Building and compiling a query through Kysely costs more CPU than SQLite takes to run a
 * simple one; the hot paths (the token check on every request, GET /user) use these instead.
 *
 * `build` receives stand-ins for its arguments and must use each as a plain value (in a
 * comparison, a limit…), not compute with it or branch on it: the compiled SQL is kept, and at
 * run time each stand-in's parameter is replaced by the real argument.
 */
export interface PreparedQuery<A extends unknown[], O> {
  all(db: Kysely<Database>, ...args: A): Promise<O[]>;
  first(db: Kysely<Database>, ...args: A): Promise<O | undefined>;
}

const STAND_IN = '\u0000prepared-query-argument-';

export function preparedQuery<A extends unknown[], O>(build: (db: Kysely<Database>, ...args: A) => Compilable<O>): PreparedQuery<A, O> {
  const compiled = new WeakMap<Kysely<Database>, { query: CompiledQuery<O>; slots: (number | null)[] }>();
  const compile = (db: Kysely<Database>) => {
    const standIns = Array.from({ length: build.length - 1 }, (_, index) => `${STAND_IN}${index}`);
    const query = build(db, ...(standIns as unknown as A)).compile();
    const slots = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(STAND_IN) ? Number(value.slice(STAND_IN.length)) : null,
    );
    const used = new Set(slots.filter((slot) => slot !== null));
    if (used.size !== standIns.length) throw new Error(`preparedQuery: ${standIns.length - used.size} argument(s) not used as plain values in: ${query.sql}`);
    const entry = { query, slots };
    compiled.set(db, entry);
    return entry;
  };
  const all = async (db: Kysely<Database>, ...args: A): Promise<O[]> => {
    const { query, slots } = compiled.get(db) ?? compile(db);
    const parameters = query.parameters.map((value, index) => (slots[index] === null ? value : args[slots[index]!]));
    const result = await db.executeQuery<O>(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<O>);
    return result.rows;
  };
  return {
    all,
    first: async (db, ...args) => (await all(db, ...args))[0],
  };
}
