import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetListResult,
  GetManyReferenceParams,
  Identifier,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
} from 'react-admin';
import type { HttpClient, QueryValue } from './httpClient';

/**
 * How a react-admin resource maps onto the Laravel-style API. Later issues add teams,
 * workspaces, requests, nodes and the admin lists here.
 */
export interface ResourceEndpoint {
  /** Collection path, e.g. '/api/tokens'. Records live at `${path}/${id}`. */
  path: string;
  /**
   * 'client': the endpoint returns the whole list as an array; sort, filter and paginate here.
   * 'server': send page, per_page, sort, order, q, filter[...] and expect the Laravel paginator
   * (a plain array answer is still accepted and handled on the client).
   */
  pagination?: 'client' | 'server';
  /** Path of one record, when it is not `${path}/${id}` (tokens are deleted by name). */
  recordPath?: (id: Identifier, previousData?: RaRecord) => string;
  /** Turns a create answer into the created record. */
  fromCreate?: (json: any) => RaRecord;
  /** Turns one record of the API into a react-admin record (must have an id). */
  toRecord?: (raw: any) => RaRecord;
  /**
   * Filters also sent as plain query parameters (requests' `status`), for 'server' lists next
   * to `filter[...]`; 'client' lists still apply them on the client too.
   */
  queryFilters?: string[];
}

const teamsEndpoint: ResourceEndpoint = { path: '/api/tenants', pagination: 'client' };

export const endpoints: Record<string, ResourceEndpoint> = {
  tokens: {
    path: '/api/tokens',
    pagination: 'client',
    recordPath: (id, previousData) => `/api/tokens/${encodeURIComponent(String(previousData?.name ?? id))}`,
    // 201 {"token": {"accessToken": {...}, "plainTextToken": "ID|SECRET"}}
    fromCreate: (json) => ({ ...json.token.accessToken, plainTextToken: json.token.plainTextToken }),
  },
  // The requests the user may decide: GET /api/requests (paginator, filter[status|type|team_id],
  // q, sort=created_at); decided with update → PATCH /api/requests/{id} {action, message}, or
  // many with decideRequests. `status` is also sent under its first name for older servers.
  requests: { path: '/api/requests', pagination: 'server', queryFilters: ['status'] },
  // Teams: GET /api/tenants, GET /api/tenants/{id-or-name}.
  tenants: teamsEndpoint,
  // Team pickers among thousands of teams: GET /api/tenants?q= answers the first 20 matches.
  'tenants/search': { ...teamsEndpoint, queryFilters: ['q'] },
  teams: teamsEndpoint,
  // Workspaces: GET /api/subnamespaces/{id} (getOne only).
  workspaces: { path: '/api/subnamespaces' },
  // Admin lists (platform admins only): Laravel paginator.
  'admin/teams': { path: '/api/admin/teams', pagination: 'server' },
  'admin/workspaces': { path: '/api/admin/workspaces', pagination: 'server' },
  'admin/users': { path: '/api/admin/users', pagination: 'server' },
  'admin/activity': { path: '/api/admin/activity', pagination: 'server' },
  // Nodes (docs/nodes-contract.md): GET /api/nodes (own nodes, a plain array), GET/POST /api/nodes[/{id}].
  nodes: { path: '/api/nodes', pagination: 'client' },
  // Cluster nodes (platform admins): paginator, records by name (GET /api/admin/nodes/{name}).
  'admin/nodes': {
    path: '/api/admin/nodes',
    pagination: 'server',
    toRecord: (raw) => ({ ...raw, id: raw.name }),
    recordPath: (id, previousData) => `/api/admin/nodes/${encodeURIComponent(String(previousData?.name ?? id))}`,
  },
};

/** The request calls that are not CRUD (docs/api-contract.md "Teams, workspaces and requests"). */
export interface TestbedCalls {
  /** POST /api/requests/teams: ask for a new team (goes to the platform admins). */
  requestTeam(data: Record<string, unknown>): Promise<any>;
  /** PATCH /api/requests/teams {team_id, message?}: ask to join a team. */
  joinTeam(data: { team_id: Identifier; message?: string }): Promise<any>;
  /** POST /api/requests/workspaces {label, name, team_id}: create (or ask for) a workspace. */
  requestWorkspace(data: { label: string; name: string; team_id: Identifier; description?: string }): Promise<any>;
  /** PATCH /api/requests/workspaces/ {team_id, name, message?}: ask to join a workspace. */
  joinWorkspace(data: { team_id: Identifier; name: string; message?: string }): Promise<any>;
  /** POST /api/subnamespaces/{id}/kubeconfig (members and platform admins; 409/503 while not ready). */
  createKubeconfig(id: Identifier): Promise<KubeconfigAnswer>;
  /** DELETE /api/subnamespaces/{id}/users/{userId}: a manager removes a member, or a member leaves. */
  removeWorkspaceMember(id: Identifier, userId: Identifier): Promise<void>;
  /** GET /api/pods?namespace={namespace} (members and platform admins; 503 when the cluster is down). */
  getPods(namespace: string, signal?: AbortSignal): Promise<Pod[]>;
  /** GET /api/nodes/{id}/activity (owner and platform admins), newest first. */
  getNodeActivity(id: Identifier, signal?: AbortSignal): Promise<NodeActivityEntry[]>;
  /** POST /api/admin/nodes/{name}/disable or /enable (platform admins): the updated admin node view. */
  setNodeEnabled(name: string, enabled: boolean): Promise<RaRecord>;
  /** POST /api/requests/bulk {ids (≤ 500), action, message?}: what happened to each request. */
  decideRequests(data: { ids: Identifier[]; action: 'approve' | 'deny'; message?: string }): Promise<BulkDecisionAnswer>;
  /** DELETE /api/admin/users/{id}/tokens[/{tokenId}] (platform admins): how many personal tokens ended. */
  revokeUserTokens(userId: Identifier, tokenId?: Identifier): Promise<number>;
  /** POST /api/admin/users/bulk (platform admins): disable or enable by ids or by the list's filter. */
  bulkUsers(data: BulkUsersRequest): Promise<BulkUsersAnswer>;
}

/** POST /api/admin/users/bulk (docs/api-contract.md "Admin: users"): ids or filter, not both. */
export interface BulkUsersRequest {
  ids?: Identifier[];
  filter?: { q?: string; admin?: boolean; enabled?: boolean; verified?: boolean; policy?: boolean; team_id?: number };
  action: 'disable' | 'enable';
  dry_run?: boolean;
}

export interface BulkUsersAnswer {
  action: 'disable' | 'enable';
  dry_run: boolean;
  matched: number;
  totals: { done: number; unchanged: number; forbidden: number; not_found: number };
  revoked: { sessions: number; personal_tokens: number; kubeconfigs: number };
  results: { id: number; status: 'done' | 'unchanged' | 'forbidden' | 'not_found'; message?: string }[];
}

/** 200 answer of POST /api/requests/bulk (docs/api-contract.md "Deciding many requests"). */
export interface BulkDecisionAnswer {
  results: {
    id: number;
    status: 'decided' | 'forbidden' | 'not_found' | 'conflict';
    http: number;
    request_status?: 'Approved' | 'Denied';
    message?: string;
  }[];
  totals: { requested: number; decided: number; forbidden: number; not_found: number; conflict: number };
}

/** One entry of GET /api/nodes/{id}/activity (docs/nodes-contract.md). */
export interface NodeActivityEntry {
  id: Identifier;
  created_at: string;
  description: string;
  properties?: { severity?: string | null } | null;
}

/** 201 answer of POST /api/subnamespaces/{id}/kubeconfig (docs/api-contract.md "Cluster"). */
export interface KubeconfigAnswer {
  kubeconfig: string;
  namespace: string;
  expires_at: string;
  filename: string;
}

/** One pod of GET /api/pods?namespace= (docs/api-contract.md "Cluster"). */
export interface Pod {
  name: string;
  namespace: string;
  status?: { phase?: string | null; podIP?: string | null; hostIP?: string | null; startTime?: string | null } | null;
}

export type TestbedDataProvider = DataProvider & TestbedCalls;

type AnyRecord = Record<string, any>;

/** Value at a dotted path ('team.name'). */
export const valueAt = (record: AnyRecord, path: string): unknown =>
  path.split('.').reduce<any>((value, key) => (value == null ? undefined : value[key]), record);

const compareValues = (a: unknown, b: unknown): number => {
  if (a == null && b == null) return 0;
  if (a == null) return -1;
  if (b == null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
};

const matchesText = (value: unknown, needle: string): boolean => {
  if (value == null) return false;
  if (typeof value === 'object') return Object.values(value).some((item) => matchesText(item, needle));
  return String(value).toLowerCase().includes(needle);
};

const matchesFilter = (record: AnyRecord, filter: AnyRecord): boolean =>
  Object.entries(filter).every(([key, expected]) => {
    if (expected === undefined || expected === '' || expected === null) return true;
    if (key === 'q') return matchesText(record, String(expected).toLowerCase());
    const actual = valueAt(record, key);
    if (Array.isArray(expected)) return expected.some((item) => String(item) === String(actual));
    if (Array.isArray(actual)) return actual.some((item) => String(item) === String(expected));
    return String(actual) === String(expected);
  });

/** Sort, filter and paginate a whole list in the browser; total = filtered length. */
export const listOnClient = <T extends RaRecord>(records: T[], params: Partial<GetListParams>): GetListResult<T> => {
  const filtered = records.filter((record) => matchesFilter(record, params.filter ?? {}));
  const { field, order } = params.sort ?? { field: '', order: 'ASC' };
  if (field) {
    const direction = String(order).toUpperCase() === 'DESC' ? -1 : 1;
    filtered.sort((a, b) => direction * compareValues(valueAt(a, field), valueAt(b, field)));
  }
  const { page, perPage } = params.pagination ?? { page: 1, perPage: filtered.length };
  const start = Math.max(0, (page - 1) * perPage);
  return { data: filtered.slice(start, start + perPage), total: filtered.length };
};

/** The largest per_page the server's paginated lists accept (docs/api-contract.md). */
export const SERVER_MAX_PER_PAGE = 100;

/** Laravel paginator query: page, per_page, sort, order, q, filter[field]. */
export const paginatorQuery = (params: Partial<GetListParams>): Record<string, QueryValue | QueryValue[]> => {
  const query: Record<string, QueryValue | QueryValue[]> = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.per_page = params.pagination.perPage;
  }
  if (params.sort?.field) {
    query.sort = params.sort.field;
    query.order = String(params.sort.order).toLowerCase();
  }
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'q') query.q = String(value);
    else query[`filter[${key}]`] = Array.isArray(value) ? value.map(String) : (value as QueryValue);
  }
  return query;
};

/** Laravel API resources may wrap a record in {data: ...}. */
const unwrap = (json: any): any =>
  json && typeof json === 'object' && !Array.isArray(json) && 'data' in json && !('id' in json) ? json.data : json;

export const createDataProvider = (http: HttpClient, map: Record<string, ResourceEndpoint> = endpoints): TestbedDataProvider => {
  const endpoint = (resource: string): ResourceEndpoint => {
    const found = map[resource];
    if (!found) throw new Error(`Unknown resource "${resource}": add it to the endpoints of src/dataProvider.ts`);
    return found;
  };
  const toRecord = (config: ResourceEndpoint, raw: any): any => (config.toRecord ? config.toRecord(raw) : raw);
  const recordPath = (config: ResourceEndpoint, id: Identifier, previousData?: RaRecord): string =>
    config.recordPath ? config.recordPath(id, previousData) : `${config.path}/${encodeURIComponent(String(id))}`;

  /** One list request, answered as an array (listed here) or a Laravel paginator. */
  const fetchList = async (resource: string, params: Partial<GetListParams>): Promise<GetListResult> => {
    const config = endpoint(resource);
    let query = config.pagination === 'server' ? paginatorQuery(params) : undefined;
    if (config.queryFilters) {
      for (const key of config.queryFilters) {
        const value = params.filter?.[key];
        if (value !== undefined && value !== null && value !== '') query = { ...query, [key]: value as QueryValue };
      }
    }
    const { json } = await http(config.path, { query, signal: params.signal });
    if (Array.isArray(json)) return listOnClient(json.map((raw) => toRecord(config, raw)), params);
    if (json && Array.isArray(json.data)) {
      const data = json.data.map((raw: any) => toRecord(config, raw));
      const total = json.meta?.total ?? json.total ?? data.length;
      return { data, total: Number(total) };
    }
    throw new Error(`Unexpected list answer for "${resource}"`);
  };

  /**
   * Pages larger than the server allows (react-admin's CSV export asks for 1,000 rows) are
   * gathered from consecutive server pages of the largest allowed size.
   */
  const getList = async (resource: string, params: Partial<GetListParams>): Promise<GetListResult> => {
    const wanted = params.pagination;
    if (endpoint(resource).pagination !== 'server' || !wanted || wanted.perPage <= SERVER_MAX_PER_PAGE) {
      return fetchList(resource, params);
    }
    const offset = (wanted.page - 1) * wanted.perPage;
    let serverPage = Math.floor(offset / SERVER_MAX_PER_PAGE) + 1;
    let skip = offset % SERVER_MAX_PER_PAGE;
    const data: RaRecord[] = [];
    let total = Number.POSITIVE_INFINITY;
    while (data.length < wanted.perPage && (serverPage - 1) * SERVER_MAX_PER_PAGE < total) {
      const chunk = await fetchList(resource, { ...params, pagination: { page: serverPage, perPage: SERVER_MAX_PER_PAGE } });
      total = chunk.total ?? chunk.data.length;
      data.push(...chunk.data.slice(skip));
      if (chunk.data.length < SERVER_MAX_PER_PAGE) break;
      skip = 0;
      serverPage += 1;
    }
    return { data: data.slice(0, wanted.perPage), total: Number.isFinite(total) ? total : data.length };
  };

  const provider: TestbedDataProvider = {
    getList,

    async requestTeam(data) {
      return (await http('/api/requests/teams', { method: 'POST', body: data })).json;
    },
    async joinTeam(data) {
      return (await http('/api/requests/teams', { method: 'PATCH', body: data })).json;
    },
    async requestWorkspace(data) {
      return (await http('/api/requests/workspaces', { method: 'POST', body: data })).json;
    },
    async joinWorkspace(data) {
      // Trailing slash as in the spec (§7); the server answers both.
      return (await http('/api/requests/workspaces/', { method: 'PATCH', body: data })).json;
    },
    async createKubeconfig(id) {
      return (await http<KubeconfigAnswer>(`/api/subnamespaces/${encodeURIComponent(String(id))}/kubeconfig`, { method: 'POST' })).json;
    },
    async removeWorkspaceMember(id, userId) {
      await http(`/api/subnamespaces/${encodeURIComponent(String(id))}/users/${encodeURIComponent(String(userId))}`, { method: 'DELETE' });
    },
    async getPods(namespace, signal) {
      const { json } = await http('/api/pods', { query: { namespace }, signal });
      const list = Array.isArray(json) ? json : Array.isArray(json?.data) ? json.data : [];
      return list as Pod[];
    },
    async getNodeActivity(id, signal) {
      const { json } = await http(`/api/nodes/${encodeURIComponent(String(id))}/activity`, { signal });
      const list = Array.isArray(json) ? json : Array.isArray(json?.data) ? json.data : [];
      return list as NodeActivityEntry[];
    },
    async setNodeEnabled(name, enabled) {
      const action = enabled ? 'enable' : 'disable';
      const { json } = await http(`/api/admin/nodes/${encodeURIComponent(name)}/${action}`, { method: 'POST' });
      const raw = unwrap(json);
      return { ...raw, id: raw?.name ?? name };
    },

    async decideRequests(data) {
      return (await http<BulkDecisionAnswer>('/api/requests/bulk', { method: 'POST', body: data })).json;
    },

    async revokeUserTokens(userId, tokenId) {
      const base = `/api/admin/users/${encodeURIComponent(String(userId))}/tokens`;
      if (tokenId === undefined) return (await http<{ revoked: number }>(base, { method: 'DELETE' })).json.revoked;
      await http(`${base}/${encodeURIComponent(String(tokenId))}`, { method: 'DELETE' });
      return 1;
    },

    async bulkUsers(data) {
      return (await http<BulkUsersAnswer>('/api/admin/users/bulk', { method: 'POST', body: data })).json;
    },

    async getOne(resource, params) {
      const config = endpoint(resource);
      const { json } = await http(recordPath(config, params.id), { signal: params.signal });
      return { data: toRecord(config, unwrap(json)) };
    },

    async getMany(resource, params) {
      const config = endpoint(resource);
      if (config.pagination !== 'server') {
        const { data } = await getList(resource, { signal: params.signal });
        const ids = new Set(params.ids.map(String));
        return { data: data.filter((record) => ids.has(String(record.id))) };
      }
      const data = await Promise.all(
        params.ids.map(async (id) => toRecord(config, unwrap((await http(recordPath(config, id))).json))),
      );
      return { data };
    },

    async getManyReference(resource, params: GetManyReferenceParams) {
      return getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
    },

    async create(resource, params: CreateParams) {
      const config = endpoint(resource);
      const { json } = await http(config.path, { method: 'POST', body: params.data });
      const raw = config.fromCreate ? config.fromCreate(json) : unwrap(json);
      return { data: toRecord(config, raw) };
    },

    async update(resource, params: UpdateParams) {
      const config = endpoint(resource);
      const { json } = await http(recordPath(config, params.id, params.previousData), {
        method: 'PATCH',
        body: params.data,
      });
      const raw = unwrap(json);
      return { data: raw && typeof raw === 'object' ? toRecord(config, raw) : { ...params.previousData, ...params.data, id: params.id } };
    },

    async updateMany(resource, params: UpdateManyParams) {
      const config = endpoint(resource);
      await Promise.all(
        params.ids.map((id) => http(recordPath(config, id), { method: 'PATCH', body: params.data })),
      );
      return { data: params.ids };
    },

    async delete(resource, params: DeleteParams) {
      const config = endpoint(resource);
      await http(recordPath(config, params.id, params.previousData), { method: 'DELETE' });
      return { data: (params.previousData ?? { id: params.id }) as any };
    },

    async deleteMany(resource, params: DeleteManyParams) {
      const config = endpoint(resource);
      // Record paths built from the record itself (tokens by name) need the records first.
      const records = config.recordPath
        ? new Map((await provider.getMany(resource, { ids: params.ids })).data.map((record) => [String(record.id), record]))
        : new Map<string, RaRecord>();
      await Promise.all(
        params.ids.map((id) => http(recordPath(config, id, records.get(String(id))), { method: 'DELETE' })),
      );
      return { data: params.ids };
    },
  };
  return provider;
};
