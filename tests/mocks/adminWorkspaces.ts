import { http, HttpResponse } from 'msw';
import type { AdminWorkspaceDetail } from '../../src/resources/admin/workspaces/types';
import { authorized, record } from './http';

// GET/PATCH/DELETE /api/admin/workspaces/{id} (docs/api-contract.md "Admin: workspaces") over
// `adminWorkspacesDb.details`. A test registers them with server.use(...adminWorkspaceHandlers)
// (msw's resetHandlers drops them after each test) and resets the state with resetAdminWorkspacesDb().

export const adminWorkspacesDb: { details: Map<number, AdminWorkspaceDetail>; deleted: number[] } = { details: new Map(), deleted: [] };

export const resetAdminWorkspacesDb = () => {
  adminWorkspacesDb.details = new Map();
  adminWorkspacesDb.deleted = [];
};

const NOW = '2026-11-20T08:05:00.000Z';
const DEFAULTS = { cpu: '8', memory: '16Gi', pods: 50, storage: '100Gi' };

export const makeAdminWorkspaceDetail = (overrides: Partial<AdminWorkspaceDetail> = {}): AdminWorkspaceDetail => ({
  id: 9,
  name: 'vision',
  label: 'Vision',
  description: 'Computer vision experiments',
  namespace: 'edgelab-vision',
  created_at: NOW,
  updated_at: NOW,
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  users: [
    { id: 5, name: 'Grace Hopper', email: 'grace@example.org', enabled: true, role: 'manager', cluster_state: 'ready', joined_at: NOW },
    { id: 6, name: 'Alan Turing', email: 'alan@example.org', enabled: true, role: 'member', cluster_state: 'ready', joined_at: NOW },
    { id: 7, name: 'Ken Thompson', email: 'ken@example.org', enabled: true, role: 'member', cluster_state: 'ready', joined_at: NOW },
    { id: 8, name: 'Barbara Liskov', email: 'barbara@example.org', enabled: true, role: 'member', cluster_state: 'pending', joined_at: NOW },
  ],
  counts: { members: 4, managers: 1, pending_requests: 2 },
  quota: {
    values: { ...DEFAULTS },
    own: { cpu: null, memory: null, pods: null, storage: null },
    defaults: { ...DEFAULTS },
    cluster: { hard: { 'requests.cpu': '8', 'limits.cpu': '16', pods: '50', 'requests.storage': '100Gi' }, used: {} },
  },
  pod_security: { enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' },
  cluster: { state: 'ready', error: null, synced_at: NOW },
  activity: [{ id: 1, description: 'workspace created', causer: { id: 5, name: 'Grace Hopper' }, properties: { severity: 'info' }, created_at: NOW }],
  ...overrides,
});

// As the server's rules (server/src/workspaces/quota.ts), enough for the form's tests.
const CPU = /^(\d{1,7}(\.\d{1,3})?|\d{1,10}m)$/;
const SIZE = /^\d{1,7}(\.\d{1,3})?(Ki|Mi|Gi|Ti|k|K|M|G|T)$/;

const invalid = (errors: Record<string, string[]>) =>
  HttpResponse.json({ message: Object.values(errors)[0]![0], errors }, { status: 422 });

export const adminWorkspaceHandlers = [
  http.get('/api/admin/workspaces/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
    const detail = adminWorkspacesDb.details.get(Number(params.id));
    return detail ? HttpResponse.json(detail) : HttpResponse.json({ message: 'Not found.' }, { status: 404 });
  }),

  http.patch('/api/admin/workspaces/:id', async ({ request, params }) => {
    const body = (await record(request)) as { quota?: Record<string, string | number | null> } | undefined;
    if (!authorized(request)) return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
    const detail = adminWorkspacesDb.details.get(Number(params.id));
    if (!detail) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
    const quota = body?.quota ?? {};
    const errors: Record<string, string[]> = {};
    if (typeof quota.cpu === 'string' && !CPU.test(quota.cpu)) errors['quota.cpu'] = ['The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.'];
    for (const field of ['memory', 'storage'] as const) {
      const value = quota[field];
      if (typeof value === 'string' && !SIZE.test(value)) errors[`quota.${field}`] = [`The quota.${field} field must be a size such as 512Mi, 16Gi or 1Ti.`];
    }
    if (Object.keys(errors).length > 0) return invalid(errors);
    const own = { ...detail.quota.own, ...quota } as AdminWorkspaceDetail['quota']['own'];
    const updated: AdminWorkspaceDetail = {
      ...detail,
      quota: {
        ...detail.quota,
        own,
        values: {
          cpu: own.cpu ?? DEFAULTS.cpu,
          memory: own.memory ?? DEFAULTS.memory,
          pods: own.pods ?? DEFAULTS.pods,
          storage: own.storage ?? DEFAULTS.storage,
        },
      },
    };
    adminWorkspacesDb.details.set(detail.id, updated);
    return HttpResponse.json(updated);
  }),

  http.delete('/api/admin/workspaces/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
    const id = Number(params.id);
    if (!adminWorkspacesDb.details.delete(id)) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
    adminWorkspacesDb.deleted.push(id);
    return new HttpResponse(null, { status: 204 });
  }),
];
