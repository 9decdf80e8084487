import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';
import { SEARCHED } from './0010_search.js';

// The platform admins' users list at 100,000 people (docs/benchmarks.md): its `total` and
// its flag filters without reading every row. Additive only.
//
// - `row_counts`: the number of rows of `users`, kept exact by triggers on insert, delete
//   (and truncate on PostgreSQL), so the unfiltered list's total is one row read instead of a
//   count(*) over every user (on PostgreSQL, tens of milliseconds per page at 100,000).
//   Statement-level triggers on PostgreSQL: a multi-row insert updates the count once. Only
//   `users`: their inserts are rare (registration, the seed), so the one counter row is no
//   point of contention; the audit log, written by most actions, has no such counter.
// - Partial indexes on the rare side of each users-list flag filter (disabled, admins, email
//   not verified, policy not accepted), in the list's default order (name): the filtered page
//   is the first rows of the index and its total a count over the index alone. The lists
//   compare the flags with literals (admin/lists/users.ts), which both planners match against
//   these indexes' conditions. The common side is counted as all minus the rare side.
// - PostgreSQL: the trigram GIN indexes of users, teams and workspaces (migration 0010) without
//   GIN's pending list (`fastupdate = off`). With it, each updated row (a bulk disable of
//   1,000 people, say) waits in an unsorted list that every search then reads in full until
//   vacuum merges it: after the benchmark's bulk actions, 10,000 pending entries made a
//   search's count take 150–200 ms instead of about 20. Writes to these tables are rare; the
//   audit log's index, written by most actions, keeps its pending list.

export const RARE_FLAG_INDEXES: Record<string, string> = {
  users_disabled_index: 'enabled = 0',
  users_admins_index: 'admin = 1',
  users_unverified_index: 'email_verified_at is null',
  users_policy_pending_index: 'aup_accepted_at is null',
};

export const COUNTED_TABLES = ['users'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .addColumn('table_name', 'text', (column) => column.primaryKey())
    .addColumn('row_count', 'bigint', (column) => column.notNull())
    .execute();
  for (const table of COUNTED_TABLES) {
    // Triggers first: on PostgreSQL creating one locks the table against writes until the
    // migration commits, so no row comes or goes between the count and the triggers.
    if (dialectOf(db) === 'postgres') await countTriggersPostgres(db, table);
    else await countTriggersSqlite(db, table);
    await sql`insert into row_counts (table_name, row_count) select ${sql.lit(table)}, count(*) from ${sql.table(table)}`.execute(db);
  }
  for (const [name, condition] of Object.entries(RARE_FLAG_INDEXES)) {
    await sql`create index ${sql.id(name)} on users (firstname, lastname, id) where ${sql.raw(condition)}`.execute(db);
  }
  if (dialectOf(db) === 'postgres') await trigramIndexesWithoutPendingList(db, false);
}

/** The trigram indexes of migration 0010 that exist in the current schema (none without pg_trgm). */
async function trigramIndexes(db: Kysely<any>): Promise<string[]> {
  const names = Object.entries(SEARCHED).flatMap(([table, expressions]) => Object.keys(expressions).map((key) => `${table}_${key}_trgm`));
  const existing: string[] = [];
  for (const name of names) {
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(db);
    if (rows[0]?.found) existing.push(name);
  }
  return existing;
}

async function trigramIndexesWithoutPendingList(db: Kysely<any>, fastupdate: boolean): Promise<void> {
  for (const name of await trigramIndexes(db)) {
    await sql`alter index ${sql.id(name)} set (fastupdate = ${sql.raw(fastupdate ? 'on' : 'off')})`.execute(db);
    // What is pending already goes into the index proper.
    if (!fastupdate) await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
  }
}

async function countTriggersSqlite(db: Kysely<any>, table: string): Promise<void> {
  for (const [event, change] of [['insert', '+ 1'], ['delete', '- 1']]) {
    await sql.raw(`create trigger ${table}_count_${event} after ${event} on ${table} begin
      update row_counts set row_count = row_count ${change} where table_name = '${table}';
    end`).execute(db);
  }
}

async function countTriggersPostgres(db: Kysely<any>, table: string): Promise<void> {
  // The functions and triggers live in the current schema, as the tables do.
  for (const [event, change] of [['insert', '+'], ['delete', '-']]) {
    const rows = event === 'insert' ? 'new_rows' : 'old_rows';
    await sql.raw(`create function ${table}_count_${event}() returns trigger language plpgsql as $$
      begin
        update row_counts set row_count = row_count ${change} (select count(*) from ${rows}) where table_name = '${table}';
        return null;
      end
    $$`).execute(db);
    await sql.raw(`create trigger ${table}_count_${event} after ${event} on ${table}
      referencing ${event === 'insert' ? 'new' : 'old'} table as ${rows}
      for each statement execute function ${table}_count_${event}()`).execute(db);
  }
  await sql.raw(`create function ${table}_count_truncate() returns trigger language plpgsql as $$
    begin
      update row_counts set row_count = 0 where table_name = '${table}';
      return null;
    end
  $$`).execute(db);
  await sql.raw(`create trigger ${table}_count_truncate after truncate on ${table} for each statement execute function ${table}_count_truncate()`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await trigramIndexesWithoutPendingList(db, true);
  for (const name of Object.keys(RARE_FLAG_INDEXES)) await db.schema.dropIndex(name).ifExists().execute();
  for (const table of COUNTED_TABLES) {
    const events = dialectOf(db) === 'postgres' ? ['insert', 'delete', 'truncate'] : ['insert', 'delete'];
    for (const event of events) {
      await sql.raw(`drop trigger if exists ${table}_count_${event}${dialectOf(db) === 'postgres' ? ` on ${table}` : ''}`).execute(db);
      if (dialectOf(db) === 'postgres') await sql.raw(`drop function if exists ${table}_count_${event}()`).execute(db);
    }
  }
  await db.schema.dropTable('row_counts').ifExists().execute();
}
