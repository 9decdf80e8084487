/** Shapes of the Laravel-style API (docs/api-contract.md). */

export type TeamRole = 'owner' | 'manager' | 'member' | (string & {});
export type WorkspaceRole = 'manager' | 'member' | (string & {});

export interface UserTeam {
  id: number;
  name: string;
  fullname?: string | null;
  shortname?: string | null;
  role?: TeamRole | null;
  /** The team's review date and where it stands (docs/lifecycle.md). */
  expires_at?: string | null;
  status?: EndStatus;
}

/** Where an end date stands: `expiring` from the warning time before it, `expired` after it. */
export type EndStatus = 'active' | 'expiring' | 'expired';

export interface UserWorkspace {
  id: number;
  name: string;
  label?: string | null;
  namespace?: string | null;
  team?: { id: number; name: string; fullname?: string | null } | null;
  role?: WorkspaceRole | null;
  /** Its own end date, when it ends (its team's review date included), and its status. */
  expires_at?: string | null;
  ends_at?: string | null;
  status?: EndStatus;
}

/** A team of the user's that platform admins suspended (GET /user `suspended_teams`): no role in it for now. */
export interface SuspendedTeam {
  id: number;
  name: string;
  fullname?: string | null;
  shortname?: string | null;
  role?: TeamRole | null;
  workspaces: { id: number; name: string; label?: string | null; namespace?: string | null }[];
}

export type RequestType = 'CreateTeam' | 'CreateWorkspace' | 'JoinTeam' | 'JoinWorkspace' | 'RenewWorkspace' | 'RenewTeam';
export type RequestStatus = 'Pending' | 'Approved' | 'Denied' | 'Error';

export interface UserRequest {
  id: number;
  type: RequestType | (string & {});
  status: RequestStatus | (string & {});
  created_at: string;
  message?: string | null;
  data?: Record<string, unknown> | null;
  user?: { id?: number; firstname?: string; lastname?: string; name?: string; email?: string } | null;
  object?: { id?: number; name?: string | null; label?: string | null; fullname?: string | null; shortname?: string | null } | null;
}

export interface User {
  id: number;
  firstname: string;
  lastname: string;
  name?: string;
  email: string;
  email_verified_at: string | null;
  aup_accepted_at: string | null;
  /** The policy version accepted last (null: the built-in text, or never accepted). */
  aup_version_id?: number | null;
  /** True while the person must accept the policy in force (a new version, or grown too old). */
  aup_required?: boolean;
  /** Why an earlier acceptance no longer holds, with the new version's "what changed" line. */
  aup_renewal?: { reason: 'new_version' | 'expired'; summary: string | null } | null;
  admin: boolean;
  enabled: boolean;
  authority?: unknown;
  /** The language the user chose (PATCH /user {locale}); null: not chosen yet. */
  locale?: 'en' | 'fr' | null;
  created_at?: string;
  teams?: UserTeam[];
  workspaces?: UserWorkspace[];
  suspended_teams?: SuspendedTeam[];
  requests?: UserRequest[];
}

export interface Token {
  id: number;
  name: string;
  abilities: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at?: string | null;
}

/** Field errors as Laravel sends them: `{field: ["msg", ...]}`. */
export type LaravelErrors = Record<string, string[] | string>;

/** An institutional identity linked to an account (GET /api/identities, GET /api/admin/users/{id}/identities). */
export interface LinkedIdentity {
  id: number;
  provider: string;
  provider_name: string;
  issuer: string;
  email: string | null;
  linked_at: string;
  /** 'password': linked from here, which a password reset undoes; 'sign-up': the account was made with it. */
  linked_with?: 'sign-up' | 'password';
  can_unlink: boolean;
}

/** A file the API answered (CSV export, node image): its content and the server's file name, if it sent one. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/** GET /api/policy: the acceptable use policy in force ("initial": the console's built-in text). */
export interface PolicyInForce {
  version: string;
  id: number | null;
  summary: string | null;
  published_at: string | null;
  text: { en: string; fr: string } | null;
  validity_days: number;
}

/** GET /api/admin/policy: a published version. */
export interface PolicyVersion {
  id: number;
  summary: string;
  text: { en: string; fr: string };
  published_at: string;
  published_by: { id: number; name: string; email: string } | null;
}

/** One hour, day or month of usage (GET …/usage `series`). */
export interface UsagePoint {
  /** ISO 8601: the period's start, in UTC. */
  start: string;
  cpu_core_hours: number;
  memory_gib_hours: number;
}

/** GET /api/subnamespaces/{id}/usage and /api/tenants/{id}/usage (docs/api-contract.md, "Usage"). */
export interface UsageAnswer {
  from: string;
  to: string;
  granularity: 'hour' | 'day' | 'month';
  /** How far the leader has accounted; null: nothing accounted yet. */
  accounted_until: string | null;
  /** One entry per period from `from` to `to`, oldest first, zero-filled. */
  series: UsagePoint[];
  total: { cpu_core_hours: number; memory_gib_hours: number };
  /** The team's answer only: each workspace's totals over the range, biggest first. */
  workspaces?: { id: number; name: string | null; label: string | null; cpu_core_hours: number; memory_gib_hours: number }[];
}

/** The query of GET /api/admin/usage (and .csv): dates as ISO 8601 or YYYY-MM-DD. */
export interface AdminUsageQuery {
  group_by: 'team' | 'workspace' | 'user';
  granularity: 'day' | 'month';
  from: string;
  to: string;
}

/** GET /api/admin/usage: a row per team, workspace or person and period with usage (none with zero). */
export interface AdminUsageAnswer {
  from: string;
  to: string;
  granularity: 'hour' | 'day' | 'month';
  accounted_until: string | null;
  data: { id: number; name: string | null; start: string; cpu_core_hours: number; memory_gib_hours: number }[];
}
