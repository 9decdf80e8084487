import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type EndFilters, endBounds, type ListOptions, fullName, groupBy, inChunks, pageAndTotal, undatedLast } from './common.js';
import type { StatusTime } from './teams.js';
import { matches } from '../../db/search.js';
import { workspaceLifecycle } from '../../workspaces/expiry.js';

export interface WorkspaceFilters extends EndFilters {
  q?: string;
  teamId?: number;
  /** Created at or after / before (ISO 8601). */
  from?: string;
  to?: string;
}

/**
 * The workspaces (joined with their team as t) of the list's filters, unsorted and unpaged.
 *
 * The end filters go by when the workspace ends, as its status does (workspaces/expiry.ts): the
 * earlier of its own end date and its team's review date, and a suspended workspace has ended.
 * Each test is on an indexed date column.
 */
export const filteredWorkspaces = (db: Kysely<Database>, filters: WorkspaceFilters) => {
  const ends = endBounds(filters);
  return db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .$if(filters.teamId !== undefined, (qb) => qb.where('w.team_id', '=', filters.teamId!))
    .$if(filters.from !== undefined, (qb) => qb.where('w.created_at', '>=', filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where('w.created_at', '<', filters.to!))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(matches(db, 'workspaces', 'w', filters.q!)))
    .$if(ends !== null && (ends.by !== null || filters.expired === false), (qb) =>
      // Not ended yet: not suspended, and neither date passed.
      qb
        .where('w.suspended_at', 'is', null)
        .where((eb) => eb.or([eb('w.expires_at', 'is', null), eb('w.expires_at', '>', ends!.now)]))
        .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', ends!.now)])),
    )
    .$if(ends !== null && ends.by !== null, (qb) => qb.where((eb) => eb.or([eb('w.expires_at', '<=', ends!.by!), eb('t.expires_at', '<=', ends!.by!)])))
    .$if(filters.expired === true, (qb) =>
      qb.where((eb) => eb.or([eb('w.suspended_at', 'is not', null), eb('w.expires_at', '<=', ends!.now), eb('t.expires_at', '<=', ends!.now)])),
    );
};

/** The columns presentWorkspaces needs from filteredWorkspaces. */
export const WORKSPACE_COLUMNS = ['w.id', 'w.name', 'w.label', 'w.namespace', 'w.created_at', 't.id as team_id', 't.name as team_name'] as const;

/** What the list's end column and status are made of (workspaces/expiry.ts). */
const END_COLUMNS = ['w.expires_at', 'w.suspended_at', 'w.cluster_state', 't.expires_at as team_expires_at'] as const;

export async function listWorkspaces(
  db: Kysely<Database>,
  options: ListOptions<'name' | 'label' | 'namespace' | 'created_at' | 'expires_at'> & WorkspaceFilters,
  at: StatusTime,
) {
  const order = options.order ?? 'asc';
  const filtered = filteredWorkspaces(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) =>
      filtered
        .select([...WORKSPACE_COLUMNS, ...END_COLUMNS])
        .$if(options.sort === 'expires_at', (qb) => qb.orderBy(undatedLast('w.expires_at')))
        .orderBy(`w.${options.sort}`, order)
        .orderBy('w.id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute(),
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  const presented = await presentWorkspaces(db, rows);
  return {
    total,
    rows: presented.map((workspace, index) => {
      const row = rows[index]!;
      const lifecycle = workspaceLifecycle(row, at.warningDays, at.now);
      // Its own end date (what an extension moves), when it ends (its team's date may come first) and its status.
      return { ...workspace, expires_at: row.expires_at, ends_at: lifecycle.ends_at, status: lifecycle.status, suspension: lifecycle.suspension };
    }),
  };
}

/** Workspaces as the list answers them, with their team and users (role). */
export async function presentWorkspaces(
  db: Kysely<Database>,
  rows: { id: number; name: string; label: string; namespace: string; created_at: string; team_id: number; team_name: string }[],
) {
  const members = await inChunks(
    rows.map((workspace) => workspace.id),
    (chunk) =>
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('users as u', 'u.id', 'wm.user_id')
        .select(['wm.workspace_id', 'wm.role', 'u.id', 'u.firstname', 'u.lastname'])
        .where('wm.workspace_id', 'in', chunk)
        .orderBy('wm.id')
        .execute(),
  );
  const membersByWorkspace = groupBy(members, (member) => member.workspace_id);
  return rows.map((workspace) => ({
    id: workspace.id,
    name: workspace.name,
    label: workspace.label,
    namespace: workspace.namespace,
    created_at: workspace.created_at,
    team: { id: workspace.team_id, name: workspace.team_name },
    users: (membersByWorkspace.get(workspace.id) ?? []).map((member) => ({ id: member.id, name: fullName(member), role: member.role })),
  }));
}
