import { DAY_MS } from '../clock.js';
import { lifecycleSettings } from '../config/lifecycleSettings.js';
import type { AppContext } from '../context.js';
import type { Request, User } from '../db/schema.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { type Access, managesTeam, managesWorkspace } from '../access/access.js';
import { findTeam } from '../teams/teams.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { submitRequest } from './requests.js';

// Asking to renew a workspace or a team (docs/lifecycle.md, "Renewal"), before or after its end.
// A workspace's renewal is decided like a workspace request (the team's owner/managers, and at
// once when they ask themselves) up to the default lifetime; longer ones go to platform admins.
// A team's renewal (its review) goes to platform admins.

export const NOT_A_MANAGER = 'Only the managers of this workspace or of its team may ask to renew it.';
export const NOT_A_TEAM_MANAGER = 'Only the owners and managers of this team may ask to renew it.';

/** POST /api/requests/workspaces/{id}/renewal: `days` more (from its end, or from now once ended), or `until` a date. */
export async function requestWorkspaceRenewal(
  context: AppContext,
  requester: User,
  access: Access,
  input: { workspaceId: number; days?: number; until?: string; reason: string },
): Promise<Request> {
  const workspace = await findWorkspace(context.db, input.workspaceId);
  if (!workspace) throw notFound();
  if (!managesWorkspace(access, workspace)) throw new HttpError(403, NOT_A_MANAGER);
  const now = context.clock.now();
  const settings = await lifecycleSettings(context.db, context.config.lifecycleDefaults);
  let longest: number;
  if (input.until !== undefined) {
    const until = new Date(input.until);
    if (until.getTime() <= now.getTime()) throw fieldError('until', 'The until date must be in the future.');
    longest = (until.getTime() - now.getTime()) / DAY_MS;
  } else {
    longest = input.days ?? 0;
  }
  const adminsDecide = longest > settings.workspace_lifetime_days;
  return submitRequest(context, requester, access, {
    type: 'RenewWorkspace',
    team_id: workspace.team_id,
    workspace_id: workspace.id,
    object_name: workspace.name,
    dedupe_key: `RenewWorkspace:${workspace.id}`,
    data: {
      ...(input.until !== undefined ? { until: new Date(input.until).toISOString() } : { days: input.days }),
      expires_at: workspace.expires_at,
      ...(adminsDecide ? { admins_decide: true } : {}),
    },
    message: input.reason,
  });
}

/** POST /api/requests/teams/{id}/renewal: a new review date, `team_review_days` on. */
export async function requestTeamRenewal(context: AppContext, requester: User, access: Access, input: { teamId: number; reason: string }): Promise<Request> {
  const team = await findTeam(context.db, input.teamId);
  if (!team) throw notFound();
  if (!access.admin && !managesTeam(access, team.id)) throw new HttpError(403, NOT_A_TEAM_MANAGER);
  return submitRequest(context, requester, access, {
    type: 'RenewTeam',
    team_id: team.id,
    workspace_id: null,
    object_name: team.name,
    dedupe_key: `RenewTeam:${team.id}`,
    data: { expires_at: team.expires_at },
    message: input.reason,
  });
}
