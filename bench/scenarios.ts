// What the bench loads, and issue 12's goals. Throughput goals are ratios of the app's
// requests per second to the bare Node hello-world's, measured next to each other.

export interface Scenario {
  label: string;
  path: string;
  /** As the admin (Bearer token). */
  auth: boolean;
  /** Issue 12's goal: at least this ratio of bare Node's throughput. */
  goal?: number;
}

/** Issue 12: each admin list scenario at least 20% of bare Node. */
export const THROUGHPUT_GOAL = 0.2;
/** Issue 12: bulk disable of 1,000 users under 2 s. */
export const BULK_GOAL_MS = 2000;
export const BULK_SIZE = 1000;
/** Issue 12: CSV export of every user under 5 s, growing the server's RSS by less than 50 MB. */
export const EXPORT_GOAL_MS = 5000;
export const EXPORT_RSS_GOAL_BYTES = 50 * 1024 * 1024;

const usersList = '/api/admin/users?page=1&per_page=25';

export function scenarios(context: { causerId: number; extra: boolean }): Scenario[] {
  const list: Scenario[] = [
    // Not a goal: the framework's ceiling (routing, logging, serialising; no token, no database).
    { label: 'GET /api/settings (no auth, no database)', path: '/api/settings', auth: false },
    // Not a goal: what any authenticated request costs (token check, the user and their relations).
    { label: 'GET /user (token check + user with relations)', path: '/user', auth: true },
    { label: 'admin users list, page 1 (sorted by name)', path: usersList, auth: true, goal: THROUGHPUT_GOAL },
    { label: 'admin users search q=kowalski', path: `${usersList}&q=kowalski`, auth: true, goal: THROUGHPUT_GOAL },
    { label: 'admin users filter[enabled]=false', path: `${usersList}&filter%5Benabled%5D=false`, auth: true, goal: THROUGHPUT_GOAL },
    { label: 'admin users sorted by email desc', path: `${usersList}&sort=email&order=desc`, auth: true, goal: THROUGHPUT_GOAL },
    {
      label: 'admin activity filtered by user',
      path: `/api/admin/activity?page=1&per_page=50&filter%5Bcauser_id%5D=${context.causerId}`,
      auth: true,
      goal: THROUGHPUT_GOAL,
    },
  ];
  if (context.extra) {
    // BENCH_EXTRA=1: more of the admin lists, without goals.
    list.push(
      { label: 'admin users search q=ad (2-character prefix)', path: `${usersList}&q=ad`, auth: true },
      { label: 'admin users page 300 sorted by email desc', path: '/api/admin/users?page=300&per_page=25&sort=email&order=desc', auth: true },
      { label: 'admin users sorted by created_at desc', path: `${usersList}&sort=created_at&order=desc`, auth: true },
      { label: 'admin teams page 1 (counts)', path: '/api/admin/teams?page=1&per_page=25', auth: true },
      { label: 'admin activity page 1', path: '/api/admin/activity?page=1&per_page=50', auth: true },
      { label: 'admin activity search q=failed', path: '/api/admin/activity?page=1&per_page=50&q=failed', auth: true },
    );
  }
  return list;
}
