import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Allocations over time (docs/lifecycle.md). Additive only.
// - `expires_at` on workspaces, teams (their review date) and team memberships; null: no end.
//   Indexed, so that the leader's pass finds what is due without reading every row.
// - `workspaces.suspended_at`: set by the pass when a workspace (or its team) ended; the
//   reconciler then withdraws its members' access and lets no pod run. Cleared by a renewal.
// - `invitations.membership_expires_at`: the end date the membership gets on acceptance.
// - `policy_versions` and `users.aup_version_id`: which version of the acceptable use policy
//   a person accepted (with `aup_accepted_at`, already there).
// - `platform_settings`: what platform admins changed of the defaults the environment gives.
// - `lifecycle_notices`: every warning sent, one row per (kind, subject, end date), unique, so
//   that no restart, leader change or second replica sends it twice, and a renewal (a new end
//   date) starts afresh.
// - Existing teams and workspaces get an end date counted from the migration: the default review
//   time (365 days) and lifetime (180 days), so nothing lives forever by accident and nobody is
//   surprised (the first warnings come 30 days before). The environment's defaults are not read
//   here: a migration gives the same result wherever it runs; admins move the dates later.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('suspended_at', 'text').execute();
  await db.schema.alterTable('teams').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('team_members').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('invitations').addColumn('membership_expires_at', 'text').execute();
  await db.schema.createIndex('workspaces_expires_at_index').on('workspaces').column('expires_at').execute();
  await db.schema.createIndex('workspaces_suspended_at_index').on('workspaces').column('suspended_at').execute();
  await db.schema.createIndex('teams_expires_at_index').on('teams').column('expires_at').execute();
  await db.schema.createIndex('team_members_expires_at_index').on('team_members').column('expires_at').execute();

  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  await db.updateTable('teams').set({ expires_at: new Date(now + 365 * day).toISOString() }).where('expires_at', 'is', null).execute();
  await db.updateTable('workspaces').set({ expires_at: new Date(now + 180 * day).toISOString() }).where('expires_at', 'is', null).execute();

  await createTableWithId(db, 'policy_versions')
    .addColumn('text_en', 'text', (column) => column.notNull())
    .addColumn('text_fr', 'text', (column) => column.notNull())
    .addColumn('summary', 'text', (column) => column.notNull())
    .addColumn('published_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('published_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('aup_version_id', 'integer', (column) => column.references('policy_versions.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('platform_settings')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('updated_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await createTableWithId(db, 'lifecycle_notices')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject_type', 'text', (column) => column.notNull())
    .addColumn('subject_id', 'integer', (column) => column.notNull())
    .addColumn('due_at', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('lifecycle_notices_once', ['kind', 'subject_type', 'subject_id', 'due_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lifecycle_notices').execute();
  await db.schema.dropTable('platform_settings').execute();
  await db.schema.alterTable('users').dropColumn('aup_version_id').execute();
  await db.schema.dropTable('policy_versions').execute();
  for (const index of ['team_members_expires_at_index', 'teams_expires_at_index', 'workspaces_suspended_at_index', 'workspaces_expires_at_index']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.alterTable('invitations').dropColumn('membership_expires_at').execute();
  await db.schema.alterTable('team_members').dropColumn('expires_at').execute();
  await db.schema.alterTable('teams').dropColumn('expires_at').execute();
  await db.schema.alterTable('workspaces').dropColumn('suspended_at').execute();
  await db.schema.alterTable('workspaces').dropColumn('expires_at').execute();
}
