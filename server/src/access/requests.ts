import type { Request } from '../db/schema.js';
import { type Access, managesTeam } from './access.js';

// Who may decide and see which request (docs/api-contract.md, "Who decides"); the decision
// itself is requests/routing.ts.

type Routed = Pick<Request, 'type' | 'team_id' | 'workspace_id'> & { data?: string };

/**
 * A renewal longer than the default lifetime, or more quota than the team has left, goes to
 * platform admins only: the request says so in its data when it is made (requests/renewals.ts,
 * requests/quotaRequests.ts).
 */
export const ADMINS_DECIDE = '"admins_decide":true';
const adminsDecide = (request: Routed) => request.data?.includes(ADMINS_DECIDE) ?? false;

/** Whether the user is among the request's deciders, leaving aside who made it. */
export function isDecider(access: Access, request: Routed): boolean {
  if (access.admin) return true;
  switch (request.type) {
    case 'CreateTeam':
    case 'RenewTeam':
      return false;
    case 'RenewWorkspace':
    case 'QuotaIncrease':
      return !adminsDecide(request) && managesTeam(access, request.team_id);
    case 'JoinTeam':
    case 'CreateWorkspace':
      return managesTeam(access, request.team_id);
    case 'JoinWorkspace':
      return (
        managesTeam(access, request.team_id) ||
        (request.workspace_id !== null && access.workspaceRoles.get(request.workspace_id) === 'manager')
      );
  }
}

/** May decide it: a decider who is not the requester. (Whether it is still Pending is separate.) */
export const mayDecide = (access: Access, request: Routed & Pick<Request, 'user_id'>) =>
  request.user_id !== access.userId && isDecider(access, request);

/** Requests are visible to their requester and to those who may decide them. */
export const maySee = (access: Access, request: Routed & Pick<Request, 'user_id'>) =>
  request.user_id === access.userId || isDecider(access, request);
