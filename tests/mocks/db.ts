import type { PolicyInForce, PolicyVersion, Token, User } from '../../src/types';
import { makeUser, PASSWORD, SESSION_TOKEN } from './fixtures';

/**
 * In-memory state behind the msw handlers: what a Laravel-style server would hold. Reset before
 * every test (tests/setup.ts); tests arrange it directly.
 */
export interface MockDb {
  user: User;
  password: string;
  /** Bearer tokens that GET /user etc. accept. */
  sessions: Set<string>;
  tokens: Token[];
  nextTokenId: number;
  /** Teams as GET /api/tenants/{id-or-name} answers them (the caller's view). */
  teams: Record<string, any>[];
  /** Workspaces as GET /api/subnamespaces/{id} answers them. */
  workspaces: Record<string, any>[];
  /** The requests the caller may decide (GET /api/requests). */
  toDecide: Record<string, any>[];
  /** Rows of the admin lists, by list name (teams, workspaces, users, activity). */
  admin: Record<string, Record<string, any>[]>;
  nextRequestId: number;
  /** Pods by namespace, as GET /api/pods?namespace= answers them. */
  pods: Record<string, Record<string, any>[]>;
  /** The cluster behind the console: 'down' and 'none' answer 503, like the server. */
  cluster: 'up' | 'down' | 'none';
  /** Every request the handlers saw, for assertions on paths, headers and bodies. */
  requests: { method: string; url: URL; headers: Headers; body: unknown }[];
}

export const db: MockDb = {} as MockDb;

/** The policy in force (GET /api/policy) and the published versions (GET/POST /api/admin/policy). */
export const policyDb: { inForce: PolicyInForce; versions: PolicyVersion[] } = { inForce: initialPolicy(), versions: [] };

function initialPolicy(): PolicyInForce {
  return { version: 'initial', id: null, summary: null, published_at: null, text: null, validity_days: 365 };
}

export const resetDb = () => {
  db.user = makeUser();
  db.password = PASSWORD;
  db.sessions = new Set([SESSION_TOKEN]);
  db.tokens = [];
  db.nextTokenId = 100;
  db.requests = [];
  db.teams = [];
  db.workspaces = [];
  db.toDecide = [];
  db.admin = { teams: [], workspaces: [], users: [], activity: [] };
  db.nextRequestId = 500;
  db.pods = {};
  db.cluster = 'up';
  policyDb.inForce = initialPolicy();
  policyDb.versions = [];
};

resetDb();

export const requestsTo = (method: string, pathname: string | RegExp) =>
  db.requests.filter(
    (request) =>
      request.method === method &&
      (typeof pathname === 'string' ? request.url.pathname === pathname : pathname.test(request.url.pathname)),
  );
