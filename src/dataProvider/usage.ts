import type { Identifier } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { NearLimitWorkspace, TeamQuotaAnswer } from '../resources/teams/types';
import type { UsageAnswer } from '../types';
import { segment } from './files';

// What workspaces and teams use (docs/api-contract.md, "Usage" and "Quotas seen from a team"):
// usage over time as the leader accounts it, and quotas as the cluster counts them now.

export interface UsageMethods {
  /** GET /api/subnamespaces/{id}/usage: the last 30 days by day unless told otherwise. */
  getWorkspaceUsage(id: Identifier, signal?: AbortSignal): Promise<UsageAnswer>;
  /** GET /api/tenants/{team}/usage (by id or name), with each workspace's totals. */
  getTeamUsage(team: Identifier, signal?: AbortSignal): Promise<UsageAnswer>;
  /** GET /api/tenants/{team}/quota: the team's workspaces' quotas, summed and one by one. */
  getTeamQuota(team: Identifier, signal?: AbortSignal): Promise<TeamQuotaAnswer>;
  /** GET /api/subnamespaces/near-limit: the viewer's workspaces at 80 % of a limit or more. */
  getWorkspacesNearLimit(signal?: AbortSignal): Promise<NearLimitWorkspace[]>;
}

export const usageMethods = (http: HttpClient): UsageMethods => ({
  async getWorkspaceUsage(id, signal) {
    return (await http<UsageAnswer>(`/api/subnamespaces/${segment(id)}/usage`, { signal })).json;
  },
  async getTeamUsage(team, signal) {
    return (await http<UsageAnswer>(`/api/tenants/${segment(team)}/usage`, { signal })).json;
  },
  async getTeamQuota(team, signal) {
    return (await http<TeamQuotaAnswer>(`/api/tenants/${segment(team)}/quota`, { signal })).json;
  },
  async getWorkspacesNearLimit(signal) {
    return (await http<{ data: NearLimitWorkspace[] }>('/api/subnamespaces/near-limit', { signal })).json.data;
  },
});
