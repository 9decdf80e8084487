import { z } from 'zod';
import type { TeamRole, WorkspaceRole } from '../db/schema.js';

// Role names (docs/api-contract.md, "Role names"). Ours: team owner, manager, member; workspace
// manager, member. The Laravel-era console (tenant_user and sub_namespace_user `role`) used
// owner, admin, collaborator, and user; a client may send either, and answers carry ours.

/** Laravel-era team roles → ours. */
export const LARAVEL_TEAM_ROLES: Readonly<Record<string, TeamRole>> = {
  owner: 'owner',
  admin: 'manager',
  collaborator: 'member',
  user: 'member',
};

/** Laravel-era workspace roles → ours (a workspace has no owner: its creator is its manager). */
export const LARAVEL_WORKSPACE_ROLES: Readonly<Record<string, WorkspaceRole>> = {
  owner: 'manager',
  admin: 'manager',
  collaborator: 'member',
  user: 'member',
};

const TEAM_ROLES = ['owner', 'manager', 'member'] as const satisfies readonly TeamRole[];
const WORKSPACE_ROLES = ['manager', 'member'] as const satisfies readonly WorkspaceRole[];

const roleField = <R extends string>(ours: readonly R[], laravel: Readonly<Record<string, R>>, field: string) =>
  z
    .enum([...new Set([...ours, ...Object.keys(laravel)])] as [string, ...string[]], {
      error: (issue) =>
        issue.input === undefined || issue.input === null ? `The ${field} field is required.` : `The selected ${field} is invalid.`,
    })
    .transform((role) => ((ours as readonly string[]).includes(role) ? (role as R) : laravel[role]!));

/** A team role as a client sends it: ours or the Laravel-era name, answered as ours. */
export const teamRoleField = (field = 'role') => roleField<TeamRole>(TEAM_ROLES, LARAVEL_TEAM_ROLES, field);

/** A workspace role as a client sends it: ours or the Laravel-era name, answered as ours. */
export const workspaceRoleField = (field = 'role') => roleField<WorkspaceRole>(WORKSPACE_ROLES, LARAVEL_WORKSPACE_ROLES, field);
