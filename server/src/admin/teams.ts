import type { Kysely } from 'kysely';
import { presentActivity, recordActivity } from '../activity/log.js';
import { quotaHard } from '../cluster/quota.js';
import { timestamp } from '../db/database.js';
import { presentTeamQuota } from '../teams/quota.js';
import type { Database, Team } from '../db/schema.js';
import { type AfterCommit, accessChanged } from '../effects/afterCommit.js';
import { HttpError } from '../http/errors.js';
import { deleteWorkspaceInTransaction } from '../workspaces/deletion.js';

// What platform admins do to a team (GET/PATCH/DELETE /api/admin/teams/{id}): see it whole,
// edit it, suspend it (its members lose their rights in it and, through the reconciler, their
// cluster access to its workspaces, until it is enabled again), delete it.

/** The team page of the admin console: the team, its members, workspaces, counts, recent activity. */
export async function teamDetail(db: Kysely<Database>, team: Team) {
  const [members, workspaces, pending, activity] = await Promise.all([
    db
      .selectFrom('team_members as tm')
      .innerJoin('users as u', 'u.id', 'tm.user_id')
      .select(['u.id', 'u.firstname', 'u.lastname', 'u.email', 'u.enabled as user_enabled', 'tm.role', 'tm.enabled', 'tm.created_at'])
      .where('tm.team_id', '=', team.id)
      .orderBy('tm.id')
      .execute(),
    db
      .selectFrom('workspaces as w')
      .leftJoin('workspace_members as wm', 'wm.workspace_id', 'w.id')
      .select(['w.id', 'w.name', 'w.label', 'w.namespace', 'w.cluster_state', 'w.created_at'])
      .select(['w.quota_cpu', 'w.quota_memory', 'w.quota_pods', 'w.quota_storage'])
      .select((eb) => eb.fn.count<number | string>('wm.id').as('member_count'))
      .where('w.team_id', '=', team.id)
      .groupBy(['w.id', 'w.name', 'w.label', 'w.namespace', 'w.cluster_state', 'w.created_at', 'w.quota_cpu', 'w.quota_memory', 'w.quota_pods', 'w.quota_storage'])
      .orderBy('w.name')
      .execute(),
    db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('team_id', '=', team.id)
      .where('status', '=', 'Pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('activity_log')
      .selectAll()
      .where('subject_type', '=', 'team')
      .where('subject_id', '=', team.id)
      .orderBy('id', 'desc')
      .limit(50)
      .execute(),
  ]);
  const presentedWorkspaces = workspaces.map(({ quota_cpu, quota_memory, quota_pods, quota_storage, ...workspace }) => ({
    ...workspace,
    member_count: Number(workspace.member_count),
    // What the reconciler puts on the namespace's ResourceQuota: the workspace's own values
    // (PATCH /api/admin/workspaces/{id}), else the defaults.
    quota: quotaHard({ cpu: quota_cpu, memory: quota_memory, pods: quota_pods, storage: quota_storage }),
  }));
  return {
    id: team.id,
    name: team.name,
    fullname: team.fullname,
    shortname: team.shortname,
    affiliation: team.affiliation,
    city: team.city,
    country: team.country,
    url: team.url,
    joining_category: team.joining_category,
    joining_reason: team.joining_reason,
    enabled: team.enabled === 1,
    created_at: team.created_at,
    updated_at: team.updated_at,
    members: members.map((member) => ({
      id: member.id,
      name: `${member.firstname} ${member.lastname}`,
      email: member.email,
      role: member.role,
      enabled: member.enabled === 1 && member.user_enabled === 1,
      joined_at: member.created_at,
    })),
    workspaces: presentedWorkspaces,
    counts: {
      members: members.length,
      owners: members.filter((member) => member.role === 'owner').length,
      managers: members.filter((member) => member.role === 'manager').length,
      workspaces: workspaces.length,
      workspace_members: presentedWorkspaces.reduce((sum, workspace) => sum + workspace.member_count, 0),
      pending_requests: Number(pending.count),
    },
    activity: activity.map(presentActivity),
    quota: await presentTeamQuota(db, team),
    allocation_core_hours: team.allocation_core_hours,
    allocation_used_up_at: team.allocation_used_up_at,
  };
}

export interface TeamChanges {
  fullname?: string;
  url?: string | null;
  country?: string | null;
  affiliation?: string | null;
  enabled?: boolean;
}

/**
 * Applies the changes; suspending or enabling marks every membership of the team's workspaces
 * pending, so the reconciler revokes or re-ensures the bindings (it reads teams.enabled). The
 * people whose rights changed are answered so the caller can call rightsChanged after commit.
 */
export async function updateTeam(
  db: Kysely<Database>,
  input: { team: Team; changes: TeamChanges; causerId: number },
): Promise<{ team: Team; affectedUserIds: number[]; enabledChanged: boolean; effects: AfterCommit }> {
  const { team, changes, causerId } = input;
  return db.transaction().execute(async (trx) => {
    const fields: { fullname?: string; url?: string | null; country?: string | null; affiliation?: string | null } = {};
    if (changes.fullname !== undefined && changes.fullname !== team.fullname) fields.fullname = changes.fullname;
    for (const key of ['url', 'country', 'affiliation'] as const) {
      const value = changes[key];
      if (value !== undefined && value !== team[key]) fields[key] = value;
    }
    const enabled = changes.enabled === undefined ? team.enabled : changes.enabled ? 1 : 0;
    const enabledChanged = enabled !== team.enabled;
    const now = timestamp();
    const updated = await trx
      .updateTable('teams')
      .set({ ...fields, enabled, updated_at: now })
      .where('id', '=', team.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (Object.keys(fields).length > 0) {
      await recordActivity(trx, {
        causerId,
        description: 'team updated',
        subject: { type: 'team', id: team.id },
        properties: { changes: Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, { from: team[key as keyof typeof fields], to: value }])) },
      });
    }
    let affectedUserIds: number[] = [];
    if (enabledChanged) {
      // The teams row is updated above (with the other fields); this does the rest, as for a bulk suspension.
      affectedUserIds = (await applyTeamsEnabled(trx, { teamIds: [team.id], enable: enabled === 1, causerId, bulk: false })).affectedUserIds;
    }
    // A suspension ends workspace and pod-log subscriptions too (realtime/rights.ts).
    return { team: updated, affectedUserIds, enabledChanged, effects: enabledChanged ? accessChanged(affectedUserIds) : {} };
  });
}

/**
 * What suspending (or enabling) the teams means beyond `teams.enabled`, inside the caller's
 * transaction, set-based whatever the number of teams: every membership of their workspaces is
 * marked pending, so the reconciler revokes (or restores) the RoleBindings (it reads
 * teams.enabled); one "team suspended" / "team enabled" entry per team, written in one
 * statement. Answers everyone in those teams or their workspaces, for rightsChanged (their
 * realtime subscriptions to the workspaces end) and the reconciler's pass after the commit.
 */
async function applyTeamsEnabled(
  trx: Kysely<Database>,
  input: { teamIds: number[]; enable: boolean; causerId: number; bulk: boolean },
): Promise<{ affectedUserIds: number[] }> {
  const { teamIds, enable } = input;
  if (teamIds.length === 0) return { affectedUserIds: [] };
  const workspaceIds = trx.selectFrom('workspaces').select('id').where('team_id', 'in', teamIds);
  await trx.updateTable('workspace_members').set({ cluster_state: 'pending', cluster_error: null }).where('workspace_id', 'in', workspaceIds).execute();
  const people = await teamsPeople(trx, teamIds);
  const now = timestamp();
  await trx
    .insertInto('activity_log')
    .values(
      teamIds.map((teamId) => ({
        causer_id: input.causerId,
        description: enable ? 'team enabled' : 'team suspended',
        subject_type: 'team',
        subject_id: teamId,
        properties: JSON.stringify({ members: people.byTeam.get(teamId)?.size ?? 0, ...(input.bulk ? { bulk: true } : {}), severity: enable ? 'info' : 'warning' }),
        created_at: now,
      })),
    )
    .execute();
  return { affectedUserIds: [...people.all] };
}

/** Everyone in these teams or their workspaces: by team, and all of them once. */
async function teamsPeople(db: Kysely<Database>, teamIds: number[]): Promise<{ byTeam: Map<number, Set<number>>; all: Set<number> }> {
  const [members, workspaceMembers] = await Promise.all([
    db.selectFrom('team_members').select(['team_id', 'user_id']).where('team_id', 'in', teamIds).execute(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .select(['w.team_id', 'wm.user_id'])
      .where('w.team_id', 'in', teamIds)
      .execute(),
  ]);
  const byTeam = new Map<number, Set<number>>();
  const all = new Set<number>();
  for (const row of [...members, ...workspaceMembers]) {
    if (!byTeam.has(row.team_id)) byTeam.set(row.team_id, new Set());
    byTeam.get(row.team_id)!.add(row.user_id);
    all.add(row.user_id);
  }
  return { byTeam, all };
}

export type TeamBulkAction = 'suspend' | 'enable';
export type TeamBulkStatus = 'done' | 'unchanged' | 'not_found';

export interface TeamBulkItem {
  id: number;
  status: TeamBulkStatus;
  message?: string;
}

/** Who a bulk suspension reaches: the changed teams' people (distinct), workspaces and workspace memberships. */
export interface TeamBulkReach {
  members: number;
  workspaces: number;
  workspace_memberships: number;
}

/**
 * Suspends or enables a batch of teams inside the caller's transaction (POST
 * /api/admin/teams/bulk): each team as PATCH /api/admin/teams/{id} {enabled} does it
 * (applyTeamsEnabled), a handful of statements for the whole batch. A team already in that
 * state is `unchanged`, an unknown id `not_found`. A dry run changes nothing and counts whom
 * the change would reach.
 */
export async function changeTeamsEnabled(
  trx: Kysely<Database>,
  input: { ids: number[]; action: TeamBulkAction; causerId: number; dryRun: boolean },
): Promise<{
  results: TeamBulkItem[];
  changedIds: number[];
  reach: TeamBulkReach;
  /** Everyone in the changed teams or their workspaces (in a dry run: who would be reached). */
  affectedUserIds: number[];
}> {
  const enable = input.action === 'enable';
  const reach: TeamBulkReach = { members: 0, workspaces: 0, workspace_memberships: 0 };
  if (input.ids.length === 0) return { results: [], changedIds: [], reach, affectedUserIds: [] };
  const teams = await trx.selectFrom('teams').select(['id', 'enabled']).where('id', 'in', input.ids).execute();
  const byId = new Map(teams.map((team) => [team.id, team]));
  const results: TeamBulkItem[] = [];
  const changedIds: number[] = [];
  for (const id of input.ids) {
    const team = byId.get(id);
    if (!team) results.push({ id, status: 'not_found', message: 'Not found.' });
    else if ((team.enabled === 1) === enable) results.push({ id, status: 'unchanged' });
    else {
      results.push({ id, status: 'done' });
      changedIds.push(id);
    }
  }
  if (changedIds.length === 0) return { results, changedIds, reach, affectedUserIds: [] };

  const [workspaces, memberships] = await Promise.all([
    trx.selectFrom('workspaces').select((eb) => eb.fn.countAll<number | string>().as('count')).where('team_id', 'in', changedIds).executeTakeFirstOrThrow(),
    trx
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('w.team_id', 'in', changedIds)
      .executeTakeFirstOrThrow(),
  ]);
  reach.workspaces = Number(workspaces.count);
  reach.workspace_memberships = Number(memberships.count);
  if (input.dryRun) {
    const people = [...(await teamsPeople(trx, changedIds)).all];
    reach.members = people.length;
    return { results, changedIds, reach, affectedUserIds: people };
  }

  await trx.updateTable('teams').set({ enabled: enable ? 1 : 0, updated_at: timestamp() }).where('id', 'in', changedIds).execute();
  const { affectedUserIds } = await applyTeamsEnabled(trx, { teamIds: changedIds, enable, causerId: input.causerId, bulk: true });
  reach.members = affectedUserIds.length;
  return { results, changedIds, reach, affectedUserIds };
}

/** Everyone in the team or one of its workspaces. */
const teamPeople = async (db: Kysely<Database>, teamId: number): Promise<number[]> => [...(await teamsPeople(db, [teamId])).all];

/** What deleting the team deletes (the `?dry_run=1` answer, and the answer of the deletion). */
export async function teamDeletionPlan(db: Kysely<Database>, team: Team) {
  const [workspaces, members, pending] = await Promise.all([
    db
      .selectFrom('workspaces as w')
      .leftJoin('workspace_members as wm', 'wm.workspace_id', 'w.id')
      .select(['w.id', 'w.name', 'w.namespace'])
      .select((eb) => eb.fn.count<number | string>('wm.id').as('member_count'))
      .where('w.team_id', '=', team.id)
      .groupBy(['w.id', 'w.name', 'w.namespace'])
      .orderBy('w.name')
      .execute(),
    db.selectFrom('team_members').select((eb) => eb.fn.countAll<number | string>().as('count')).where('team_id', '=', team.id).executeTakeFirstOrThrow(),
    db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('team_id', '=', team.id)
      .where('status', '=', 'Pending')
      .executeTakeFirstOrThrow(),
  ]);
  const presented = workspaces.map((workspace) => ({ ...workspace, member_count: Number(workspace.member_count) }));
  return {
    team: { id: team.id, name: team.name, fullname: team.fullname },
    workspaces: presented,
    namespaces: presented.map((workspace) => workspace.namespace),
    counts: {
      workspaces: presented.length,
      namespaces: presented.length,
      team_members: Number(members.count),
      workspace_members: presented.reduce((sum, workspace) => sum + workspace.member_count, 0),
      pending_requests: Number(pending.count),
    },
  };
}

export type TeamDeletionPlan = Awaited<ReturnType<typeof teamDeletionPlan>>;

// Whole sentences for one and for several workspaces, so that the catalogue can give each its
// French (i18n/catalogue/admin.ts).
export const stillHasWorkspacesMessage = (team: Pick<Team, 'fullname'>, names: string[]) =>
  names.length === 1
    ? `The team ${team.fullname} still has a workspace: ${names[0]}. Delete it first, or delete the team with its workspaces.`
    : `The team ${team.fullname} still has ${names.length} workspaces: ${names.join(', ')}. Delete them first, or delete the team with its workspaces.`;

/**
 * Deletes the team (one transaction): refused (409) while it has workspaces unless `cascade`,
 * which deletes each workspace as DELETE /api/admin/workspaces/{id} does (namespaces through
 * the reconciler). Pending requests about the team are closed. Answers the plan carried out
 * and everyone whose rights ended, for rightsChanged after the commit.
 */
export async function deleteTeam(
  db: Kysely<Database>,
  input: { team: Team; cascade: boolean; causerId: number },
): Promise<{ plan: TeamDeletionPlan; affectedUserIds: number[]; effects: AfterCommit }> {
  const { team, cascade, causerId } = input;
  return db.transaction().execute(async (trx) => {
    // Locks the team first (PostgreSQL), so a workspace approved meanwhile is seen or waits.
    await trx.updateTable('teams').set({ updated_at: timestamp() }).where('id', '=', team.id).execute();
    const plan = await teamDeletionPlan(trx, team);
    if (plan.workspaces.length > 0 && !cascade) {
      throw new HttpError(409, stillHasWorkspacesMessage(team, plan.workspaces.map((workspace) => workspace.name)));
    }
    const affectedUserIds = await teamPeople(trx, team.id);
    const workspaces = await trx.selectFrom('workspaces').selectAll().where('team_id', '=', team.id).orderBy('id').execute();
    for (const workspace of workspaces) await deleteWorkspaceInTransaction(trx, workspace, causerId);
    const now = timestamp();
    await trx
      .updateTable('requests')
      .set({ status: 'Denied', decision_message: 'The team was deleted.', decided_by: causerId, decided_at: now, updated_at: now })
      .where('team_id', '=', team.id)
      .where('status', '=', 'Pending')
      .execute();
    await trx.deleteFrom('team_members').where('team_id', '=', team.id).execute();
    await trx.deleteFrom('teams').where('id', '=', team.id).execute();
    await recordActivity(trx, {
      causerId,
      description: 'team deleted',
      subject: { type: 'team', id: team.id },
      severity: 'warning',
      properties: { name: team.name, fullname: team.fullname, workspaces: plan.namespaces, members: plan.counts.team_members },
    });
    return { plan, affectedUserIds, effects: accessChanged(affectedUserIds) };
  });
}
