import { NOW } from './mocks/fixtures';

/** A team as GET /api/tenants/{id-or-name} answers it to a member. */
export const makeTeam = (overrides: Record<string, any> = {}) => ({
  id: 3,
  name: 'edgelab',
  fullname: 'Edge Computing Lab',
  shortname: 'Edge Lab',
  affiliation: 'University of X',
  city: null,
  country: 'FR',
  url: 'https://edgelab.example.org',
  joining_category: 'Research',
  created_at: NOW,
  role: 'owner',
  member: true,
  pending_request: null,
  workspaces: [{ id: 7, name: 'vision', label: 'Vision', namespace: 'edgelab-vision' }],
  subnamespaces: [{ id: 7, name: 'vision', label: 'Vision', namespace: 'edgelab-vision' }],
  users: [
    { id: 1, name: 'Ada Lovelace', firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org', enabled: true, pivot: { role: 'owner' } },
    { id: 5, name: 'Grace Hopper', firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.org', enabled: false, pivot: { role: 'member' } },
  ],
  ...overrides,
});

/** A workspace as GET /api/subnamespaces/{id} answers it. */
export const makeWorkspace = (overrides: Record<string, any> = {}) => ({
  id: 7,
  name: 'vision',
  label: 'Vision',
  description: 'Computer vision experiments.',
  namespace: 'edgelab-vision',
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  tenant: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  role: 'manager',
  member: true,
  can_manage: true,
  users: [{ id: 1, name: 'Ada Lovelace', enabled: true, pivot: { role: 'manager' } }],
  requests: [],
  pod_security: { enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' },
  ...overrides,
});

/** A request another user made, that the current user may decide. */
export const makeRequestToDecide = (overrides: Record<string, any> = {}) => ({
  id: 12,
  type: 'JoinTeam',
  status: 'Pending',
  message: 'Please let me in',
  data: {},
  user: { id: 5, firstname: 'Grace', lastname: 'Hopper', name: 'Grace Hopper' },
  object: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab' },
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  decided_by: null,
  decided_at: null,
  decision_message: null,
  created_at: '2026-11-20T08:05:00.000Z',
  updated_at: '2026-11-20T08:05:00.000Z',
  can_decide: true,
  ...overrides,
});
