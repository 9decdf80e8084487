import type { Identifier, RaRecord } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { BulkTeamsAnswer, BulkTeamsRequest, TeamDeletion } from '../resources/admin/teams/types';
import type { BulkUsersAnswer, BulkUsersRequest } from '../resources/admin/users/types';
import type { BulkWorkspacesAnswer } from '../resources/admin/workspaces/types';
import type { AdminDashboard } from '../resources/admin/dashboard/types';
import type { BulkExtendAnswer, BulkExtendRequest, LifecyclePreview, LifecycleSettings, LifecycleSettingsPatch } from '../resources/admin/lifecycle/types';
import type { DownloadedFile, LinkedIdentity, PolicyInForce, PolicyVersion } from '../types';
import { type ApiObject, type ResourceEndpoint, paginatorQuery, unwrap } from './crud';
import { csvRowCounter, fetchFile, segment } from './files';

// The platform admins' calls that are not CRUD (docs/api-contract.md "Admin: …"): bulk
// actions with their dry runs, the team deletion with its cascade, node enabling, token
// revocation, a user's identities, the lists' CSV exports, the lifecycle settings and the
// preview of what ends next, the dashboard's overview. The admin lists and records
// themselves are CRUD (resources 'admin/teams', 'admin/users'…).

export interface AdminMethods {
  /** GET /api/admin/policy: the policy's published versions, newest first. */
  getPolicyVersions(): Promise<PolicyVersion[]>;
  /** GET /api/policy: the version in force ("initial" before any is published). */
  getPolicyInForce(): Promise<PolicyInForce>;
  /** POST /api/admin/policy: publishes a version everybody must accept at their next visit. */
  publishPolicyVersion(data: { text: { en: string; fr: string }; summary: string }): Promise<PolicyVersion>;
  /** DELETE /api/admin/teams/{id}?cascade=1[&dry_run=1]: what is (or would be) deleted. */
  deleteTeamCascade(teamId: number, options: { dryRun: boolean }): Promise<TeamDeletion>;
  /** POST /api/admin/teams/bulk: suspend or enable by ids or filter; with dry_run, what would happen. */
  bulkTeams(data: BulkTeamsRequest): Promise<BulkTeamsAnswer>;
  /** POST /api/admin/workspaces/bulk {ids, action: 'delete', dry_run?}: what is (or would be) deleted, per id. */
  bulkDeleteWorkspaces(ids: Identifier[], options: { dryRun: boolean }): Promise<BulkWorkspacesAnswer>;
  /** POST /api/admin/{teams,workspaces}/bulk {action: 'extend', days}: end dates moved by ids or the list's filter; with dry_run, what would happen. */
  bulkExtend(list: 'teams' | 'workspaces', data: Omit<BulkExtendRequest, 'action'>): Promise<BulkExtendAnswer>;
  /** GET /api/admin/settings: the lifecycle settings in force, with the environment's defaults. */
  getLifecycleSettings(): Promise<LifecycleSettings>;
  /** PATCH /api/admin/settings: changes some; the settings as they then hold (422 per field). */
  updateLifecycleSettings(patch: LifecycleSettingsPatch): Promise<LifecycleSettings>;
  /** GET /api/admin/lifecycle/preview?until=: what will be warned of, suspended, deleted and removed until then. */
  getLifecyclePreview(until?: string): Promise<LifecyclePreview>;
  /** GET /api/admin/dashboard: the platform overview's numbers. */
  getAdminDashboard(): Promise<AdminDashboard>;
  /** POST /api/admin/users/bulk: disable or enable by ids or by the list's filter. */
  bulkUsers(data: BulkUsersRequest): Promise<BulkUsersAnswer>;
  /** DELETE /api/admin/users/{id}/tokens[/{tokenId}]: how many personal tokens ended. */
  revokeUserTokens(userId: Identifier, tokenId?: Identifier): Promise<number>;
  /** GET /api/admin/users/{id}/identities: the institutional identities of a user. */
  getUserIdentities(userId: Identifier): Promise<LinkedIdentity[]>;
  /** POST /api/admin/nodes/{name}/disable or /enable: the updated admin node view. */
  setNodeEnabled(name: string, enabled: boolean): Promise<RaRecord>;
  /**
   * GET {list path}.csv?q=…&filter[…]=… of an admin list (resource 'admin/teams'…): the server's
   * CSV for these filters, under the server's file name, else `{list}-{date}.csv`. The server
   * streams it; `onRows` hears how many records have arrived so far, as they arrive.
   */
  exportCsv(resource: string, filter: Record<string, unknown>, onRows?: (rows: number) => void): Promise<DownloadedFile & { filename: string }>;
}

export const adminMethods = (http: HttpClient, map: Record<string, ResourceEndpoint>): AdminMethods => ({
  async getPolicyVersions() {
    return (await http<PolicyVersion[]>('/api/admin/policy')).json;
  },
  async getPolicyInForce() {
    return (await http<PolicyInForce>('/api/policy')).json;
  },
  async publishPolicyVersion(data) {
    return (await http<PolicyVersion>('/api/admin/policy', { method: 'POST', body: data })).json;
  },
  async deleteTeamCascade(teamId, options) {
    const query = options.dryRun ? { cascade: 1, dry_run: 1 } : { cascade: 1 };
    return (await http<TeamDeletion>(`/api/admin/teams/${segment(teamId)}`, { method: 'DELETE', query })).json;
  },
  async bulkTeams(data) {
    return (await http<BulkTeamsAnswer>('/api/admin/teams/bulk', { method: 'POST', body: data })).json;
  },
  async bulkDeleteWorkspaces(ids, options) {
    const body = { ids, action: 'delete', ...(options.dryRun ? { dry_run: true } : {}) };
    return (await http<BulkWorkspacesAnswer>('/api/admin/workspaces/bulk', { method: 'POST', body })).json;
  },
  async bulkExtend(list, data) {
    return (await http<BulkExtendAnswer>(`/api/admin/${list}/bulk`, { method: 'POST', body: { ...data, action: 'extend' } })).json;
  },
  async getLifecycleSettings() {
    return (await http<LifecycleSettings>('/api/admin/settings')).json;
  },
  async updateLifecycleSettings(patch) {
    return (await http<LifecycleSettings>('/api/admin/settings', { method: 'PATCH', body: patch })).json;
  },
  async getLifecyclePreview(until) {
    return (await http<LifecyclePreview>('/api/admin/lifecycle/preview', until ? { query: { until } } : {})).json;
  },
  async getAdminDashboard() {
    return (await http<AdminDashboard>('/api/admin/dashboard')).json;
  },
  async bulkUsers(data) {
    return (await http<BulkUsersAnswer>('/api/admin/users/bulk', { method: 'POST', body: data })).json;
  },
  async revokeUserTokens(userId, tokenId) {
    const base = `/api/admin/users/${segment(userId)}/tokens`;
    if (tokenId === undefined) return (await http<{ revoked: number }>(base, { method: 'DELETE' })).json.revoked;
    await http(`${base}/${segment(tokenId)}`, { method: 'DELETE' });
    return 1;
  },
  async getUserIdentities(userId) {
    return (await http<LinkedIdentity[]>(`/api/admin/users/${segment(userId)}/identities`)).json;
  },
  async setNodeEnabled(name, enabled) {
    const action = enabled ? 'enable' : 'disable';
    const { json } = await http(`/api/admin/nodes/${segment(name)}/${action}`, { method: 'POST' });
    const raw = unwrap(json) as ApiObject | undefined;
    return { ...raw, id: (raw?.name as string | undefined) ?? name };
  },
  async exportCsv(resource, filter, onRows) {
    const endpoint = map[resource];
    if (!endpoint) throw new Error(`Unknown resource "${resource}": add it to the endpoints of src/dataProvider/crud.ts`);
    const counter = csvRowCounter();
    const onChunk = onRows && ((chunk: Uint8Array) => onRows(counter.add(chunk)));
    const file = await fetchFile(http, `${endpoint.path}.csv`, { accept: 'text/csv', query: paginatorQuery({ filter }), onChunk });
    const fallback = `${endpoint.path.split('/').pop()}-${new Date().toISOString().slice(0, 10)}.csv`;
    return { blob: file.blob, filename: file.filename ?? fallback };
  },
});
