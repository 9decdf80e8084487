// What the bench loads, and its goals (docs/benchmarks.md). Throughput goals are ratios of the
// app's requests per second to its floor's (the same statements in a bare Fastify route,
// bench/scenarioFloor.ts), measured next to each other; latency goals are the p99 of one more
// pass at BENCH_P99_CONNECTIONS (10) connections.

export type Who = 'nobody' | 'admin' | 'member';

/**
 * The two sets of API goals, printed apart: the platform admin's work at scale (lists, bulk
 * actions and the export, set for 100,000 users) and the everyday speed and memory (the
 * member's pages, the server's RSS).
 */
export type GoalGroup = 'scale' | 'speed';

/** Each group's heading in the report, in the order printed. */
export const GOAL_GROUPS: Record<GoalGroup, string> = {
  scale: 'Admin lists, bulk actions and export at scale (set for 100,000 users)',
  speed: "Speed and memory (the member's pages, the server's RSS)",
};

export interface ScenarioGoal {
  /** The set of goals it belongs to. */
  group: GoalGroup;
  /** Least ratio to the scenario's floor at BENCH_CONNECTIONS. */
  ratio: number;
  /** Most p99 latency (ms) at BENCH_P99_CONNECTIONS connections, per database. */
  p99Ms?: { sqlite: number; postgres: number };
}

export interface Scenario {
  label: string;
  path: string;
  /** Whose bearer token (none, the platform admin, or the seeded member). */
  as: Who;
  goals: ScenarioGoal[];
}

/** Bulk disable of 1,000 users under 2 s. */
export const BULK_GOAL_MS = 2000;
export const BULK_SIZE = 1000;
/** CSV export of every user under 5 s, growing the server's RSS by less than 50 MB. */
export const EXPORT_GOAL_MS = 5000;
export const EXPORT_RSS_GOAL_BYTES = 50 * 1024 * 1024;
/** The server's idle RSS, with the sandbox cluster and without. */
export const IDLE_RSS_GOAL_BYTES = { sandbox: 150 * 1024 * 1024, none: 100 * 1024 * 1024 };
/** "No growth over 10 minutes of mixed load": RSS at the end minus after the first minute. */
export const SOAK_GROWTH_GOAL_BYTES = 10 * 1024 * 1024;

// Speed: the member's pages ≥ 0.8 of their floor, p99 at 10 connections < 10 ms on SQLite and
// < 15 ms on PostgreSQL. Scale (set for 100,000 users): the admin lists ≥ 0.7 of their floor,
// p99 < 50 ms on both.
const MEMBER_PAGE: ScenarioGoal = { group: 'speed', ratio: 0.8, p99Ms: { sqlite: 10, postgres: 15 } };
const ADMIN_LIST: ScenarioGoal = { group: 'scale', ratio: 0.7, p99Ms: { sqlite: 50, postgres: 50 } };

const usersList = '/api/admin/users?page=1&per_page=25';

export function scenarios(context: { causerId: number; workspaceId: number; extra: boolean }): Scenario[] {
  const list: Scenario[] = [
    // No goal: the framework's ceiling (routing, headers, serialising; no token, no database).
    { label: 'GET /api/settings (no token, no database)', path: '/api/settings', as: 'nobody', goals: [] },
    { label: 'GET /user (member: teams, workspaces, requests)', path: '/user', as: 'member', goals: [MEMBER_PAGE] },
    { label: 'GET /api/tokens (member)', path: '/api/tokens', as: 'member', goals: [MEMBER_PAGE] },
    { label: 'GET /api/requests (team owner, page 1)', path: '/api/requests?page=1&per_page=25&filter%5Bstatus%5D=Pending', as: 'member', goals: [MEMBER_PAGE] },
    { label: 'GET /api/subnamespaces/{id} (workspace page)', path: `/api/subnamespaces/${context.workspaceId}`, as: 'member', goals: [MEMBER_PAGE] },
    { label: 'admin users list, page 1 (sorted by name)', path: usersList, as: 'admin', goals: [ADMIN_LIST] },
    { label: 'admin users search q=kowalski', path: `${usersList}&q=kowalski`, as: 'admin', goals: [ADMIN_LIST] },
    { label: 'admin users filter[enabled]=false', path: `${usersList}&filter%5Benabled%5D=false`, as: 'admin', goals: [ADMIN_LIST] },
    { label: 'admin users sorted by name desc', path: `${usersList}&sort=name&order=desc`, as: 'admin', goals: [ADMIN_LIST] },
    { label: 'admin users sorted by email desc', path: `${usersList}&sort=email&order=desc`, as: 'admin', goals: [ADMIN_LIST] },
    { label: 'admin users sorted by created_at desc', path: `${usersList}&sort=created_at&order=desc`, as: 'admin', goals: [ADMIN_LIST] },
    {
      label: 'admin activity filtered by user',
      path: `/api/admin/activity?page=1&per_page=50&filter%5Bcauser_id%5D=${context.causerId}`,
      as: 'admin',
      goals: [ADMIN_LIST],
    },
  ];
  if (context.extra) {
    // BENCH_EXTRA=1: more of the admin lists, without goals.
    list.push(
      { label: 'admin users search q=ad (2-character prefix)', path: `${usersList}&q=ad`, as: 'admin', goals: [] },
      { label: 'admin users page 300 sorted by email desc', path: '/api/admin/users?page=300&per_page=25&sort=email&order=desc', as: 'admin', goals: [] },
      { label: 'admin teams page 1 (counts)', path: '/api/admin/teams?page=1&per_page=25', as: 'admin', goals: [] },
      { label: 'admin activity page 1', path: '/api/admin/activity?page=1&per_page=50', as: 'admin', goals: [] },
      { label: 'admin activity search q=failed', path: '/api/admin/activity?page=1&per_page=50&q=failed', as: 'admin', goals: [] },
    );
  }
  return list;
}
