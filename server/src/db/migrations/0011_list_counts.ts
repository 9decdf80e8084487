import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// The platform admins' users list at 100,000 people (issue 12's benchmark): its `total` and
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
