import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Nodes contributed to the testbed (docs/nodes-contract.md, server/src/nodes/). Additive only;
// portable types as in 0001: timestamps are ISO text, flags integers, JSON text.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'nodes')
    // Null for a machine-first node that no user has claimed yet.
    .addColumn('owner_id', 'integer', (column) => column.references('users.id').onDelete('cascade'))
    // The Kubernetes Node name, chosen when the node first asks for a bootstrap token.
    .addColumn('name', 'text')
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('dhcp', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('hostname', 'text')
    .addColumn('ipv4', 'text')
    .addColumn('ip_v6', 'text')
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('disabled_at', 'text')
    // SHA-256 (hex) of the node secret: agents are looked up by it.
    .addColumn('secret_hash', 'text', (column) => column.notNull())
    // Random input of the secret's derivation (nodes/secrets.ts); useless without APP_KEY.
    .addColumn('secret_salt', 'text', (column) => column.notNull())
    .addColumn('claim_code', 'text')
    .addColumn('claim_code_expires_at', 'text')
    .addColumn('info', 'text', (column) => column.notNull().defaultTo('{}'))
    .addColumn('last_active_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('nodes_secret_hash_unique', ['secret_hash'])
    .addUniqueConstraint('nodes_claim_code_unique', ['claim_code'])
    // Both databases allow any number of nulls in a unique column.
    .addUniqueConstraint('nodes_name_unique', ['name'])
    .execute();
  await db.schema.createIndex('nodes_owner_index').on('nodes').columns(['owner_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('nodes').execute();
}
