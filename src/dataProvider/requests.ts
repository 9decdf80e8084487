import type { Identifier } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { BulkDecisionAnswer, BulkRequestFilter } from '../resources/requests/types';
import type { UserRequest } from '../types';
import { segment } from './files';

// Requests (docs/api-contract.md "Teams, workspaces and requests"): asking for a team or a
// workspace, asking to join one or to renew one (docs/lifecycle.md), and deciding many at once. One request is listed and decided
// through CRUD (resource 'requests': GET /api/requests, PATCH /api/requests/{id}).

export interface RequestMethods {
  /** POST /api/requests/teams: ask for a new team (goes to the platform admins). */
  requestTeam(data: Record<string, unknown>): Promise<UserRequest>;
  /** PATCH /api/requests/teams {team_id, message?}: ask to join a team. */
  joinTeam(data: { team_id: Identifier; message?: string }): Promise<UserRequest>;
  /** POST /api/requests/workspaces {label, name, team_id}: create (or ask for) a workspace. */
  requestWorkspace(data: { label: string; name: string; team_id: Identifier; description?: string }): Promise<UserRequest>;
  /** PATCH /api/requests/workspaces/ {team_id, name, message?}: ask to join a workspace. */
  joinWorkspace(data: { team_id: Identifier; name: string; message?: string }): Promise<UserRequest>;
  /** POST /api/requests/bulk {ids (≤ 500), action, message?, dry_run?}: what happened (or, with dryRun, would happen) to each request. */
  decideRequests(data: { ids: Identifier[]; action: 'approve' | 'deny'; message?: string; dryRun?: boolean }): Promise<BulkDecisionAnswer>;
  /**
   * POST /api/requests/bulk {filter, action, message?, dry_run?}: decides (or, with dryRun, says
   * what deciding would do to) every request the list's filter matches, not only the loaded page.
   */
  decideMatchingRequests(data: { filter: BulkRequestFilter; action: 'approve' | 'deny'; message?: string; dryRun: boolean }): Promise<BulkDecisionAnswer>;
  /**
   * POST /api/requests/workspaces/{id}/renewal {days, reason}: ask for `days` more (from its end,
   * or from now once it ended). Approved at once when the asker decides it (a team manager,
   * within the default lifetime); 409 when a renewal is already pending.
   */
  renewWorkspace(id: Identifier, data: { days: number; reason: string }): Promise<UserRequest>;
  /** POST /api/requests/teams/{id}/renewal {reason}: ask the platform admins for a new review date. */
  renewTeam(id: Identifier, data: { reason: string }): Promise<UserRequest>;
  /**
   * POST /api/requests/workspaces/{id}/quota {quota, reason, until?}: ask for more quota. The team's
   * managers decide within what the team has left (at once when they ask), platform admins beyond.
   */
  askForQuota(id: Identifier, data: { quota: Record<string, string | number>; reason: string; until?: string }): Promise<UserRequest>;
}

export const requestMethods = (http: HttpClient): RequestMethods => ({
  async requestTeam(data) {
    return (await http<UserRequest>('/api/requests/teams', { method: 'POST', body: data })).json;
  },
  async joinTeam(data) {
    return (await http<UserRequest>('/api/requests/teams', { method: 'PATCH', body: data })).json;
  },
  async requestWorkspace(data) {
    return (await http<UserRequest>('/api/requests/workspaces', { method: 'POST', body: data })).json;
  },
  async joinWorkspace(data) {
    // Trailing slash as the original console called it; the server answers both.
    return (await http<UserRequest>('/api/requests/workspaces/', { method: 'PATCH', body: data })).json;
  },
  async decideRequests({ dryRun, ...rest }) {
    const body = { ...rest, ...(dryRun ? { dry_run: true } : {}) };
    return (await http<BulkDecisionAnswer>('/api/requests/bulk', { method: 'POST', body })).json;
  },
  async decideMatchingRequests({ dryRun, ...rest }) {
    const body = { ...rest, ...(dryRun ? { dry_run: true } : {}) };
    return (await http<BulkDecisionAnswer>('/api/requests/bulk', { method: 'POST', body })).json;
  },
  async renewWorkspace(id, data) {
    return (await http<UserRequest>(`/api/requests/workspaces/${segment(id)}/renewal`, { method: 'POST', body: data })).json;
  },
  async renewTeam(id, data) {
    return (await http<UserRequest>(`/api/requests/teams/${segment(id)}/renewal`, { method: 'POST', body: data })).json;
  },
  async askForQuota(id, data) {
    return (await http<UserRequest>(`/api/requests/workspaces/${segment(id)}/quota`, { method: 'POST', body: data })).json;
  },
});
