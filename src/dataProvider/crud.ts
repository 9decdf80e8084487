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
import type { HttpClient, QueryValue } from '../httpClient';
import { paginatorQuery } from './paginator';

export { paginatorQuery };

// react-admin's CRUD methods (getList, getOne, create, update, delete…) for every resource of
// the console, on the Laravel-style API: `endpoints` says where each resource lives on the wire.

/** How a react-admin resource maps onto the Laravel-style API. */
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
  fromCreate?: (json: ApiObject) => RaRecord;
  /** Turns one record of the API into a react-admin record (must have an id). */
  toRecord?: (raw: ApiObject) => RaRecord;
  /**
   * Filters also sent as plain query parameters (requests' `status`), for 'server' lists next
   * to `filter[...]`; 'client' lists still apply them on the client too.
   */
  queryFilters?: string[];
  /**
   * getMany reads each record on its own (`recordPath`) instead of the whole list: for a
   * 'client' list that is too long to download for a few records (a picker's chosen team).
   */
  getManyOneByOne?: boolean;
}

/** A JSON object of the API, before it is known to be a record. */
export type ApiObject = Record<string, unknown>;

// The console calls teams 'teams'; the wire keeps its Laravel-era /api/tenants paths.
const teamsEndpoint: ResourceEndpoint = { path: '/api/tenants', pagination: 'client' };

export const endpoints: Record<string, ResourceEndpoint> = {
  tokens: {
    path: '/api/tokens',
    pagination: 'client',
    recordPath: (id, previousData) => `/api/tokens/${encodeURIComponent(String(previousData?.name ?? id))}`,
    // 201 {"token": {"accessToken": {...}, "plainTextToken": "ID|SECRET"}}
    fromCreate: (json) => {
      const { token } = json as { token: { accessToken: RaRecord; plainTextToken: string } };
      return { ...token.accessToken, plainTextToken: token.plainTextToken };
    },
  },
  // The requests the user may decide: GET /api/requests (paginator, filter[status|type|team_id],
  // q, sort=created_at); decided with update → PATCH /api/requests/{id} {action, message}, or
  // many with decideRequests. `status` is also sent under its first name for older servers.
  requests: { path: '/api/requests', pagination: 'server', queryFilters: ['status'] },
  // Teams: GET /api/tenants, GET /api/tenants/{id-or-name}.
  teams: teamsEndpoint,
  // Team pickers among thousands of teams: GET /api/tenants?q= answers the first 20 matches,
  // and the chosen team is read alone (GET /api/tenants/{id}), never the whole list.
  'teams/search': { ...teamsEndpoint, queryFilters: ['q'], getManyOneByOne: true },
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
    toRecord: (raw) => ({ ...raw, id: raw.name as string }),
    recordPath: (id, previousData) => `/api/admin/nodes/${encodeURIComponent(String(previousData?.name ?? id))}`,
  },
};

type AnyRecord = Record<string, unknown>;

/** Value at a dotted path ('team.name'). */
export const valueAt = (record: AnyRecord, path: string): unknown =>
  path.split('.').reduce<unknown>(
    (value, key) => (value == null || typeof value !== 'object' ? undefined : (value as AnyRecord)[key]),
    record,
  );

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

const isObject = (json: unknown): json is ApiObject => typeof json === 'object' && json !== null && !Array.isArray(json);

/** Laravel API resources may wrap a record in {data: ...}. */
export const unwrap = (json: unknown): unknown => (isObject(json) && 'data' in json && !('id' in json) ? json.data : json);

/** The items of an answer that is a plain array or a {data: [...]} wrapper (anything else: none). */
export const listItems = <T>(json: unknown): T[] => {
  if (Array.isArray(json)) return json as T[];
  if (isObject(json) && Array.isArray(json.data)) return json.data as T[];
  return [];
};

/** The CRUD half of the console's data provider, for the resources of `map`. */
export const createCrudProvider = (http: HttpClient, map: Record<string, ResourceEndpoint> = endpoints): DataProvider => {
  const endpoint = (resource: string): ResourceEndpoint => {
    const found = map[resource];
    if (!found) throw new Error(`Unknown resource "${resource}": add it to the endpoints of src/dataProvider/crud.ts`);
    return found;
  };
  // Records are what the API answered: react-admin's generic record types stand for them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- RaRecord of any resource
  const toRecord = (config: ResourceEndpoint, raw: unknown): any => (config.toRecord ? config.toRecord(raw as ApiObject) : raw);
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
    if (isObject(json) && Array.isArray(json.data)) {
      const data: RaRecord[] = json.data.map((raw) => toRecord(config, raw));
      const meta = json.meta as { total?: unknown } | undefined;
      const total = meta?.total ?? json.total ?? data.length;
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

  const provider: DataProvider = {
    getList,

    async getOne(resource, params) {
      const config = endpoint(resource);
      const { json } = await http(recordPath(config, params.id), { signal: params.signal });
      return { data: toRecord(config, unwrap(json)) };
    },

    async getMany(resource, params) {
      const config = endpoint(resource);
      if (config.pagination !== 'server' && !config.getManyOneByOne) {
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
      const raw = config.fromCreate ? config.fromCreate(json as ApiObject) : unwrap(json);
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
      return { data: params.previousData ?? ({ id: params.id } as NonNullable<typeof params.previousData>) };
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
