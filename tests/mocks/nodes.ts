import { http, HttpResponse, type JsonBodyType } from 'msw';
import { db } from './db';
import { NOW } from './fixtures';
import { authorized, record } from './http';

/**
 * Nodes API of docs/nodes-contract.md, backed by `nodesDb` (reset before each test by
 * tests/setup.ts). The handlers record requests in `db.requests` like the others.
 */
export const NODE_TYPES = ['raspberry-pi', 'jetson', 'x86-64', 'arm64', 'virtual-machine', 'other'];

export interface NodesDb {
  /** Console nodes (GET /api/nodes answers those of the current user, newest first). */
  nodes: Record<string, any>[];
  /** Activity by node id, newest first. */
  activity: Record<string, Record<string, any>[]>;
  /** Cluster nodes as GET /api/admin/nodes answers them. */
  adminNodes: Record<string, any>[];
  /** Unclaimed machine-first nodes by code. */
  codes: Record<string, Record<string, any>>;
  /** The cluster: 'down' answers 503 on the admin calls. */
  cluster: 'up' | 'down';
  nextId: number;
}

export const nodesDb: NodesDb = {} as NodesDb;

export const resetNodesDb = () => {
  nodesDb.nodes = [];
  nodesDb.activity = {};
  nodesDb.adminNodes = [];
  nodesDb.codes = {};
  nodesDb.cluster = 'up';
  nodesDb.nextId = 40;
};
resetNodesDb();

export const IMAGE_BYTES = new Uint8Array([0xeb, 0x3c, 0x90, 0x6d, 0x6b, 0x66, 0x73, 0x2e]);

/** A node as GET /api/nodes/{id} answers it to its owner. */
export const makeNode = (overrides: Record<string, any> = {}) => {
  const id = overrides.id ?? 41;
  return {
    id,
    name: 'edge-pi-01',
    type: 'raspberry-pi',
    dhcp: true,
    hostname: 'edge-pi-01',
    ip_v4: '192.168.1.23',
    ip_v6: null,
    notes: null,
    lastActive: NOW,
    status: 'ok',
    info: { hostname: 'edge-pi-01', architecture: 'arm64', os: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-rpi7' },
    installation_url: `http://localhost/agent/install/tbn_secret${id}`,
    image_url: `/api/nodes/${id}/image`,
    owner: { id: 1, name: 'Ada Lovelace' },
    ...overrides,
  };
};

/** A cluster node as GET /api/admin/nodes answers it. */
export const makeAdminNode = (overrides: Record<string, any> = {}, status: Record<string, any> = {}) => {
  const addresses = status.addesses ?? [
    { type: 'InternalIP', address: '10.0.0.21' },
    { type: 'Hostname', address: overrides.name ?? 'edge-pi-01' },
  ];
  return {
    name: 'edge-pi-01',
    type: 'raspberry-pi',
    owner: { id: 1, name: 'Ada Lovelace' },
    node_id: 41,
    unschedulable: false,
    ...overrides,
    status: {
      addesses: addresses,
      addresses,
      capacity: { cpu: '4', memory: '8049112Ki', 'ephemeral-storage': '30298176Ki', pods: '110' },
      nodeInfo: { architecture: 'arm64', operatingSystem: 'linux', osImage: 'Debian GNU/Linux 12 (bookworm)', kubeletVersion: 'v1.31.2' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: NOW },
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: NOW },
      ],
      state: 'ok',
      ...status,
    },
  };
};

const json = (value: unknown, status = 200) => HttpResponse.json(value as JsonBodyType, { status });
const unauthenticated = () => json({ message: 'Unauthenticated.' }, 401);
const notFound = () => json({ message: 'Not found.' }, 404);
const forbidden = () => json({ message: 'This action is unauthorized.' }, 403);
const clusterDown = () =>
  nodesDb.cluster === 'down'
    ? json({ message: 'The cluster cannot be reached right now. Try again in a minute.' }, 503)
    : null;

const ownNodes = () => nodesDb.nodes.filter((node) => node.owner?.id === db.user.id);
const findNode = (id: string) =>
  nodesDb.nodes.find((node) => String(node.id) === id && (node.owner?.id === db.user.id || db.user.admin));

const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The server's validation of POST /api/nodes (contract), as Laravel would answer it. */
const validate = (body: Record<string, any> | undefined) => {
  const errors: Record<string, string[]> = {};
  if (!body?.type) errors.type = ['The type field is required.'];
  else if (!NODE_TYPES.includes(body.type)) errors.type = ['The selected type is invalid.'];
  if (typeof body?.dhcp !== 'boolean') errors.dhcp = ['The dhcp field must be true or false.'];
  if (body?.dhcp === false) {
    if (!body.ipv4) errors.ipv4 = ['The ipv4 field is required when dhcp is false.'];
    else if (!IPV4.test(body.ipv4)) errors.ipv4 = ['The ipv4 field must be a valid IPv4 address.'];
  }
  if (body?.hostname && !HOSTNAME.test(body.hostname)) errors.hostname = ['The hostname field format is invalid.'];
  // One name, one node: a hostname any node already goes by, whoever owns it.
  else if (body?.hostname && nodesDb.nodes.some((node) => [node.name, node.hostname].includes(String(body.hostname).toLowerCase())))
    errors.hostname = ['This name is already used by another node. Choose another hostname.'];
  if (body?.notes && String(body.notes).length > 1000) errors.notes = ['The notes field must not be greater than 1000 characters.'];
  if (body?.code !== undefined && body.code !== null && body.code !== '') {
    const code = String(body.code).toUpperCase();
    if (!/^[A-Z]{6}$/.test(code)) errors.code = ['The code field format is invalid.'];
    else if (!nodesDb.codes[code]) errors.code = ['The code is unknown or has expired.'];
  }
  return errors;
};

export const nodeHandlers = [
  http.get('/api/nodes', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const owner = new URL(request.url).searchParams.get('owner');
    const rows = owner === 'all' && db.user.admin ? nodesDb.nodes : ownNodes();
    return json([...rows].sort((a, b) => Number(b.id) - Number(a.id)));
  }),

  http.post('/api/nodes', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const errors = validate(body);
    if (Object.keys(errors).length > 0) return json({ message: Object.values(errors)[0]![0], errors }, 422);
    const claimed = body!.code ? nodesDb.codes[String(body!.code).toUpperCase()] : undefined;
    const id = claimed?.id ?? nodesDb.nextId++;
    const node = makeNode({
      id,
      name: null,
      type: body!.type,
      dhcp: body!.dhcp,
      hostname: body!.hostname ?? null,
      ip_v4: body!.dhcp ? null : body!.ipv4,
      notes: body!.notes ?? null,
      lastActive: null,
      status: claimed ? 'installing' : 'to install',
      info: {},
      ...(claimed ?? {}),
      owner: { id: db.user.id, name: db.user.name },
    });
    nodesDb.nodes.push(node);
    return json(node, 201);
  }),

  http.get('/api/nodes/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const node = findNode(String(params.id));
    return node ? json(node) : notFound();
  }),

  http.patch('/api/nodes/:id', async ({ request, params }) => {
    const body = (await record(request)) as { team_id?: number | null } | undefined;
    if (!authorized(request)) return unauthenticated();
    const node = findNode(String(params.id));
    if (!node) return notFound();
    Object.assign(node, { team_id: body?.team_id ?? null });
    return json(node);
  }),

  http.get('/api/nodes/:id/activity', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!findNode(String(params.id))) return notFound();
    return json(nodesDb.activity[String(params.id)] ?? []);
  }),

  http.get('/api/nodes/:id/image', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!findNode(String(params.id))) return notFound();
    return new HttpResponse(IMAGE_BYTES, {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': `attachment; filename="testbed-node-${params.id}-cidata.img"`,
      },
    });
  }),

  http.get('/api/admin/nodes', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return forbidden();
    const down = clusterDown();
    if (down) return down;
    const url = new URL(request.url);
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const rows = nodesDb.adminNodes.filter((node) => !q || String(node.name).toLowerCase().includes(q));
    const page = url.searchParams.get('page');
    if (!page) return json(rows);
    const perPage = Number(url.searchParams.get('per_page') ?? 25);
    const current = Number(page);
    return json({
      data: rows.slice((current - 1) * perPage, current * perPage),
      meta: { current_page: current, per_page: perPage, total: rows.length, last_page: Math.max(1, Math.ceil(rows.length / perPage)) },
    });
  }),

  http.get('/api/admin/nodes/:name', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return forbidden();
    const down = clusterDown();
    if (down) return down;
    const node = nodesDb.adminNodes.find((item) => item.name === params.name);
    if (!node) return notFound();
    const activity = node.node_id != null ? (nodesDb.activity[String(node.node_id)] ?? []) : [];
    return json({ ...node, activity });
  }),

  http.post('/api/admin/nodes/:name/:action', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return forbidden();
    const down = clusterDown();
    if (down) return down;
    const node = nodesDb.adminNodes.find((item) => item.name === params.name);
    if (!node || (params.action !== 'disable' && params.action !== 'enable')) return notFound();
    const disable = params.action === 'disable';
    node.unschedulable = disable;
    node.status = { ...node.status, state: disable ? '' : 'ok' };
    return json(node);
  }),
];
