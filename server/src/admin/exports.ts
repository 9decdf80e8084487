import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type CsvColumn, csvStream, joined, keysetBatches, mapBatches } from '../http/csvExport.js';
import {
  type ActivityFilters,
  filteredActivity,
  filteredTeams,
  filteredUsers,
  filteredWorkspaces,
  presentActivity,
  presentTeams,
  presentUsers,
  presentWorkspaces,
  type TeamFilters,
  USER_COLUMNS,
  type UserFilters,
  WORKSPACE_COLUMNS,
  type WorkspaceFilters,
} from './lists.js';

// The CSV exports of the admin lists: the list's own filters (lists.ts), read by id in
// batches, presented as the list presents them, one line per record. Relations are a count
// and a joined column. Rows come in id order (the audit log newest first, as its list).

type Presented<F extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<F>>[number];

const withRole = (item: { name: string; role: string }) => `${item.name} (${item.role})`;

const userColumns: CsvColumn<Presented<typeof presentUsers>>[] = [
  { header: 'id', value: (user) => user.id },
  { header: 'firstname', value: (user) => user.firstname },
  { header: 'lastname', value: (user) => user.lastname },
  { header: 'email', value: (user) => user.email },
  { header: 'admin', value: (user) => user.admin },
  { header: 'enabled', value: (user) => user.enabled },
  { header: 'email_verified_at', value: (user) => user.email_verified_at },
  { header: 'created_at', value: (user) => user.created_at },
  { header: 'team_count', value: (user) => user.teams.length },
  { header: 'teams', value: (user) => joined(user.teams, withRole) },
  { header: 'workspace_count', value: (user) => user.workspaces.length },
  { header: 'workspaces', value: (user) => joined(user.workspaces, withRole) },
];

export const exportUsers = (db: Kysely<Database>, filters: UserFilters, batch?: number) =>
  csvStream(
    userColumns,
    mapBatches(
      keysetBatches(
        (after, limit) =>
          filteredUsers(db, filters)
            .select(USER_COLUMNS)
            .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
            .orderBy('id')
            .limit(limit)
            .execute(),
        batch,
      ),
      (rows) => presentUsers(db, rows),
    ),
  );

const teamColumns: CsvColumn<Presented<typeof presentTeams>>[] = [
  { header: 'id', value: (team) => team.id },
  { header: 'name', value: (team) => team.name },
  { header: 'fullname', value: (team) => team.fullname },
  { header: 'shortname', value: (team) => team.shortname },
  { header: 'country', value: (team) => team.country },
  { header: 'created_at', value: (team) => team.created_at },
  { header: 'member_count', value: (team) => team.users.length },
  { header: 'members', value: (team) => joined(team.users, withRole) },
  { header: 'workspace_count', value: (team) => team.workspaces.length },
  { header: 'workspaces', value: (team) => joined(team.workspaces, (workspace) => workspace.name) },
];

export const exportTeams = (db: Kysely<Database>, filters: TeamFilters, batch?: number) =>
  csvStream(
    teamColumns,
    mapBatches(
      keysetBatches(
        (after, limit) =>
          filteredTeams(db, filters)
            .selectAll()
            .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
            .orderBy('id')
            .limit(limit)
            .execute(),
        batch,
      ),
      (rows) => presentTeams(db, rows),
    ),
  );

const workspaceColumns: CsvColumn<Presented<typeof presentWorkspaces>>[] = [
  { header: 'id', value: (workspace) => workspace.id },
  { header: 'name', value: (workspace) => workspace.name },
  { header: 'label', value: (workspace) => workspace.label },
  { header: 'namespace', value: (workspace) => workspace.namespace },
  { header: 'team_id', value: (workspace) => workspace.team.id },
  { header: 'team', value: (workspace) => workspace.team.name },
  { header: 'created_at', value: (workspace) => workspace.created_at },
  { header: 'member_count', value: (workspace) => workspace.users.length },
  { header: 'members', value: (workspace) => joined(workspace.users, withRole) },
];

export const exportWorkspaces = (db: Kysely<Database>, filters: WorkspaceFilters, batch?: number) =>
  csvStream(
    workspaceColumns,
    mapBatches(
      keysetBatches(
        (after, limit) =>
          filteredWorkspaces(db, filters)
            .select(WORKSPACE_COLUMNS)
            .$if(after !== undefined, (qb) => qb.where('w.id', '>', after!))
            .orderBy('w.id')
            .limit(limit)
            .execute(),
        batch,
      ),
      (rows) => presentWorkspaces(db, rows),
    ),
  );

const activityColumns: CsvColumn<Presented<typeof presentActivity>>[] = [
  { header: 'id', value: (entry) => entry.id },
  { header: 'created_at', value: (entry) => entry.created_at },
  { header: 'severity', value: (entry) => entry.properties.severity },
  { header: 'description', value: (entry) => entry.description },
  { header: 'causer_id', value: (entry) => entry.causer?.id },
  { header: 'causer', value: (entry) => entry.causer?.name },
  { header: 'subject_type', value: (entry) => entry.subject_type },
  { header: 'subject_id', value: (entry) => entry.subject_id },
  { header: 'subject', value: (entry) => entry.subject?.name },
  { header: 'properties', value: (entry) => JSON.stringify(entry.properties) },
];

/** The audit log newest first, as its list: keyset by id downwards. `ids`: only those entries (Export selected). */
export const exportActivity = (db: Kysely<Database>, filters: ActivityFilters & { ids?: number[] }, batch?: number) =>
  csvStream(
    activityColumns,
    mapBatches(
      keysetBatches(
        (after, limit) =>
          filteredActivity(db, filters)
            .selectAll()
            .$if(filters.ids !== undefined, (qb) => qb.where('id', 'in', filters.ids!))
            .$if(after !== undefined, (qb) => qb.where('id', '<', after!))
            .orderBy('id', 'desc')
            .limit(limit)
            .execute(),
        batch,
      ),
      (rows) => presentActivity(db, rows),
    ),
  );
