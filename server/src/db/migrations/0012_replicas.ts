import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Several replicas on one PostgreSQL (docs/deploy.md). Additive only.
//
// - `realtime_messages`: realtime bus messages too large for a PostgreSQL NOTIFY payload
//   (8,000 bytes): the notification carries the row's id, each replica reads the row. Rows are
//   deleted after a few minutes (realtime/bus.ts). Unused on SQLite (one process, in-process bus).
// - `mail_outbox`: every mail, written in the transaction of the action that causes it and
//   sent afterwards with retries (mail/outbox.ts): a replica killed between the two loses
//   nothing. `status`: pending → sent, or failed after the last attempt; `locked_until` is a
//   sender's claim, so two replicas never send one mail twice while both are alive.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'realtime_messages')
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('realtime_messages_created_at_index').on('realtime_messages').column('created_at').execute();

  await createTableWithId(db, 'mail_outbox')
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('html', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The sender's query: pending mails due now, oldest first.
  await db.schema.createIndex('mail_outbox_due_index').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('realtime_messages').execute();
}
