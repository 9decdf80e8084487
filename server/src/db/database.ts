import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, type LogEvent, PostgresAdapter, type QueryResult, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import { CurrentSchemaPostgresDialect } from './currentSchemaIntrospector.js';
import { loadPg } from './pg.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/** pg's own default for a pool's size. */
const DEFAULT_POOL_SIZE = 10;

export interface DatabaseOptions {
  /**
   * PostgreSQL only: the schema every connection works in (`search_path`). The tests give
   * each test file a schema of its own this way.
   */
  searchPath?: string;
  /** PostgreSQL only: most connections in the pool (DATABASE_POOL_SIZE; pg's default is 10). */
  poolSize?: number;
  /**
   * PostgreSQL only: told when an idle pooled connection fails (the server restarted, a
   * network cut). The pool drops that connection and opens a new one on the next query; without
   * a listener, pg's 'error' event would end the process.
   */
  onPoolError?: (error: Error) => void;
  /**
   * Told of every query run (its SQL and parameters), for tests that count the queries an
   * endpoint makes and benches that replay them through the bare driver.
   */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/**
 * A Kysely instance for DATABASE_URL: `sqlite:<file>` (better-sqlite3, WAL, foreign keys on)
 * or `postgres://…` (a pg connection pool).
 */
export function createDatabase(url: string, options: DatabaseOptions = {}): Kysely<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    if (options.searchPath !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.searchPath)) {
      throw new Error(`Invalid schema name for search_path: ${options.searchPath}`);
    }
    const pool = new (loadPg().Pool)({
      connectionString: url,
      options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      // Connections once opened stay open (pg closes idle ones above `min` after 10 s): opening
      // one costs PostgreSQL a backend and its first queries a cold catalog, tens of ms that an
      // admin page running several queries at once would otherwise pay after every quiet spell.
      min: options.poolSize ?? DEFAULT_POOL_SIZE,
      // A query waits at most this long for a free connection (or a reachable server), so a
      // database outage answers 503 quickly instead of holding every request.
      connectionTimeoutMillis: 5000,
    });
    const onPoolError = options.onPoolError ?? (() => undefined);
    pool.on('error', onPoolError);
    // The pool listens for errors on idle connections only: one that fails while checked out
    // but running no query (between two queries of a transaction, or when PostgreSQL's
    // "terminating connection due to administrator command" comes in the same packet as the
    // end of a query, before the connection is released) would emit 'error' with nobody
    // listening, which ends the process. So every connection gets a listener of its own. Nothing more to
    // do there: the connection is no longer queryable, so the next query on it fails (a 503,
    // logged with the request) and the pool drops it on release; idle ones are reported above.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      reusePreparedStatements(client);
    });
    return new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }), log: queryListener(options) });
  }

  const sqliteMatch = /^sqlite:(.+)$/.exec(url);
  if (!sqliteMatch) throw new Error(`Unsupported DATABASE_URL: ${url}`);
  const file = sqliteMatch[1];
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI and a running server may share the file; wait for a lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }), log: queryListener(options) });
  runOutsideTransactionsDirectly(db, sqlite, statements, options.onQuery);
  return db;
}

/**
 * On SQLite, a query outside any transaction runs on the connection itself, without Kysely's
 * executor: its connection lock and the chain of promises around each call cost a request in
 * the server more than SQLite took to run a simple statement (the token check: 77 µs through
 * the executor against 50 µs for the statement alone, per request under load). The instance's
 * own executor is given a faster `executeQuery`; a transaction's instance has an executor of its
 * own and goes through Kysely as before.
 *
 * While a transaction is open on the connection (SQLite has one), a statement run here would
 * belong to whoever opened it, so such a query goes through Kysely, which waits for the
 * transaction to end. better-sqlite3 runs a statement synchronously, so no transaction can begin
 * between that check and the run. The answer is the one Kysely's SQLite driver gives.
 */
function runOutsideTransactionsDirectly(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  statements: SQLite.Database,
  onQuery: DatabaseOptions['onQuery'],
): void {
  const executor = db.getExecutor();
  if (executor.plugins.length > 0) throw new Error('Queries run directly on SQLite would skip the Kysely plugins');
  const throughKysely = executor.executeQuery.bind(executor);
  executor.executeQuery = async <R>(compiledQuery: CompiledQuery<R>): Promise<QueryResult<R>> => {
    if (sqlite.inTransaction) return throughKysely(compiledQuery);
    const { sql: text, parameters } = compiledQuery;
    onQuery?.(text, parameters);
    const statement = statements.prepare(text);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  };
}

function queryListener({ onQuery }: DatabaseOptions): ((event: LogEvent) => void) | undefined {
  return onQuery ? (event) => onQuery(event.query.sql, event.query.parameters) : undefined;
}

/** Distinct statements kept prepared per SQLite database or PostgreSQL connection. */
export const PREPARED_STATEMENTS_KEPT = 500;

/**
 * Kysely asks better-sqlite3 to prepare every query anew, which was a fifth of the CPU of a
 * simple authenticated request. The same SQL text gets the same prepared statement back here
 * (a bounded, least-recently-used cache). A statement still being iterated (a streamed export
 * reading it) cannot run a second query, so that case gets a fresh one.
 */
export function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        const cached = statements.get(source);
        if (cached) {
          if (cached.busy) return prepare(source);
          // Re-inserted: Map keeps insertion order, so the first key is the least recently used.
          statements.delete(source);
          statements.set(source, cached);
          return cached;
        }
        const statement = prepare(source);
        statements.set(source, statement);
        if (statements.size > PREPARED_STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
        return statement;
      };
    },
  });
}

/**
 * pg sends every query unnamed, so PostgreSQL parses and plans it each time. Giving a query a
 * name derived from its text makes pg prepare it once per connection and then only bind and
 * execute it. PostgreSQL cannot forget a named statement cheaply, so each connection names at
 * most PREPARED_STATEMENTS_KEPT distinct texts (queries built with a variable number of
 * parameters, such as `in (…)` lists, can make many) and sends the rest unnamed as before.
 */
function reusePreparedStatements(client: pg.PoolClient): void {
  const names = new Map<string, string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || !Array.isArray(values) || args.length !== 2) return query(...args);
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= PREPARED_STATEMENTS_KEPT) return query(...args);
      name = `kysely_${names.size}`;
      names.set(text, name);
    }
    return query({ name, text, values });
  };
}

/**
 * Opens `count` pooled connections now (PostgreSQL; SQLite has its one), by running as many
 * queries at once, so that the first requests after a start do not wait for them.
 */
export async function openConnections(db: Kysely<Database>, count: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // Best effort: a database that went away again fails the requests that need it, not the start.
  await Promise.all(Array.from({ length: count }, () => sql`select 1`.execute(db).catch(() => undefined)));
}

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** True for a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' /* PostgreSQL */ || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The current time, or `date`, as stored in timestamp columns (ISO-8601 UTC text). */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString();
}
