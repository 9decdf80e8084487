import type { Identifier } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { NearLimitWorkspace, TeamQuotaAnswer } from '../resources/teams/types';
import type { AdminUsageAnswer, AdminUsageQuery, UsageAnswer } from '../types';
import { fetchFile, segment } from './files';

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
  /** GET /api/admin/usage: the platform's usage per team, workspace or person and period (platform admins). */
  getAdminUsage(query: AdminUsageQuery, signal?: AbortSignal): Promise<AdminUsageAnswer>;
  /** GET /api/admin/usage.csv: the same rows as a CSV file, under the server's file name. */
  exportAdminUsage(query: AdminUsageQuery): Promise<{ blob: Blob; filename: string }>;
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
  async getAdminUsage(query, signal) {
    return (await http<AdminUsageAnswer>('/api/admin/usage', { query: { ...query }, signal })).json;
  },
  async exportAdminUsage(query) {
    const file = await fetchFile(http, '/api/admin/usage.csv', { accept: 'text/csv', query: { ...query } });
    return { blob: file.blob, filename: file.filename ?? `usage-${query.group_by}-${new Date().toISOString().slice(0, 10)}.csv` };
  },
});
