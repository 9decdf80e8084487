import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import { preparedQuery } from '../db/prepared.js';
import type { Database, Workspace, WorkspaceRole } from '../db/schema.js';
import { namespaceFor } from './naming.js';

const workspaceById = preparedQuery((db, id: number) => db.selectFrom('workspaces').selectAll().where('id', '=', id));

export function findWorkspace(db: Kysely<Database>, id: number): Promise<Workspace | undefined> {
  return workspaceById.first(db, id);
}

export function findWorkspaceByName(db: Kysely<Database>, teamId: number, name: string): Promise<Workspace | undefined> {
  return db.selectFrom('workspaces').selectAll().where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
}

/** Creates a workspace in a team (pass the decision's transaction); its namespace is derived. */
export async function insertWorkspace(
  trx: Kysely<Database>,
  input: { team: { id: number; name: string }; name: string; label: string; description: string | null; causerId: number },
): Promise<Workspace> {
  const now = timestamp();
  const created = await trx
    .insertInto('workspaces')
    .values({
      team_id: input.team.id,
      name: input.name,
      label: input.label,
      description: input.description,
      namespace: namespaceFor(input.team.name, input.name),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'workspace created',
    subject: { type: 'workspace', id: created.id },
    properties: { name: created.name, namespace: created.namespace, team_id: created.team_id },
  });
  return created;
}

/** Adds the user to the workspace with `role`; an existing membership is kept (false). */
export async function addWorkspaceMember(
  trx: Kysely<Database>,
  input: { workspaceId: number; userId: number; role: WorkspaceRole; causerId: number },
): Promise<boolean> {
  const existing = await trx
    .selectFrom('workspace_members')
    .select('id')
    .where('workspace_id', '=', input.workspaceId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (existing) return false;
  await trx
    .insertInto('workspace_members')
    .values({ workspace_id: input.workspaceId, user_id: input.userId, role: input.role, created_at: timestamp() })
    .execute();
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'workspace member added',
    subject: { type: 'workspace', id: input.workspaceId },
    properties: { user_id: input.userId, role: input.role },
  });
  return true;
}

export async function isWorkspaceMember(db: Kysely<Database>, workspaceId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('workspace_members')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export type RemovalOutcome = 'removed' | 'not-member';

/**
 * Deletes the membership and leaves a cluster revocation for the reconciler (same transaction),
 * so the person's kubeconfigs stop working even if the cluster is down right now.
 */
export async function removeWorkspaceMember(
  db: Kysely<Database>,
  input: { workspace: Workspace; userId: number; causerId: number },
): Promise<RemovalOutcome> {
  return db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom('workspace_members')
      .select(['id', 'role'])
      .where('workspace_id', '=', input.workspace.id)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    if (!member) return 'not-member';
    await trx.deleteFrom('workspace_members').where('id', '=', member.id).execute();
    await trx
      .insertInto('cluster_revocations')
      .values({ workspace_id: input.workspace.id, namespace: input.workspace.namespace, user_id: input.userId, created_at: timestamp() })
      .execute();
    await recordActivity(trx, {
      causerId: input.causerId,
      description: input.causerId === input.userId ? 'workspace left' : 'workspace member removed',
      subject: { type: 'workspace', id: input.workspace.id },
      properties: { user_id: input.userId, role: member.role },
    });
    return 'removed';
  });
}
