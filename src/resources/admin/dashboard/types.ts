// GET /api/admin/dashboard (docs/api-contract.md, "Admin: dashboard"): the platform admins'
// overview. Each number is counted with the filter of the admin list the page links it to.

export interface AdminDashboard {
  generated_at: string;
  /** Every known request type (0 included), and any other found pending. */
  pending_requests: { total: number; by_type: { type: string; count: number }[] };
  /** People active in the last 24 hours, 7 days, 30 days (users list filter active_within_days 1, 7, 30). */
  active_people: { day: number; week: number; month: number };
  /** The five teams with most CPU core-hours in this calendar month (UTC), [from, to). */
  top_teams: {
    from: string;
    to: string;
    /** name and fullname are null for a deleted team (its usage stays). */
    teams: { id: number; name: string | null; fullname: string | null; cpu_core_hours: number; memory_gib_hours: number }[];
  };
  capacity: {
    /** The Ready nodes' capacity, not disabled ones: cores and GiB. */
    contributed: { nodes: number; cpu: number; memory: number };
    /** Average cores and GiB requested over the last complete accounted hour; null: nothing accounted yet. */
    used: { hour_start: string; cpu: number; memory: number } | null;
  };
  /** The console's nodes per status, as the admin nodes list's status filter names them. */
  nodes_by_status: { status: string; count: number }[];
  /** Teams and workspaces ending from now to `days` days on (lists' filter expiring_within_days). */
  expiring_soon: { days: number; teams: number; workspaces: number };
}
