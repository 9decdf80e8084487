import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type ListOptions, fullName, groupBy, inChunks, pageAndTotal } from './common.js';
import { matches } from '../../db/search.js';

export interface WorkspaceFilters {
  q?: string;
  teamId?: number;
  /** Created at or after / before (ISO 8601). */
  from?: string;
  to?: string;
}

/** The workspaces (joined with their team as t) of the list's filters, unsorted and unpaged. */
export const filteredWorkspaces = (db: Kysely<Database>, filters: WorkspaceFilters) =>
  db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .$if(filters.teamId !== undefined, (qb) => qb.where('w.team_id', '=', filters.teamId!))
    .$if(filters.from !== undefined, (qb) => qb.where('w.created_at', '>=', filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where('w.created_at', '<', filters.to!))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(matches(db, 'workspaces', 'w', filters.q!)));

/** The columns presentWorkspaces needs from filteredWorkspaces. */
export const WORKSPACE_COLUMNS = ['w.id', 'w.name', 'w.label', 'w.namespace', 'w.created_at', 't.id as team_id', 't.name as team_name'] as const;

export async function listWorkspaces(
  db: Kysely<Database>,
  options: ListOptions<'name' | 'label' | 'namespace' | 'created_at'> & WorkspaceFilters,
) {
  const order = options.order ?? 'asc';
  const filtered = filteredWorkspaces(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) =>
      filtered
        .select(WORKSPACE_COLUMNS)
        .orderBy(`w.${options.sort}`, order)
        .orderBy('w.id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute(),
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  return { total, rows: await presentWorkspaces(db, rows) };
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
