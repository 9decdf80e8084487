import type { ColumnType, Generated, Selectable } from 'kysely';

// Table types as Kysely sees them. Portable column choices (see docs/server.md):
// timestamps are ISO-8601 UTC strings, flags are integers 0/1, JSON is text.

/** An ISO-8601 UTC timestamp such as 2026-11-22T10:15:00.000Z. */
export type Timestamp = string;
/** 0 or 1. */
export type Flag = number;
/** JSON text. */
export type JsonText = string;

export interface UsersTable {
  id: Generated<number>;
  firstname: string;
  lastname: string;
  /** Trimmed and lowercased; unique. */
  email: string;
  password_hash: string;
  email_verified_at: Timestamp | null;
  aup_accepted_at: Timestamp | null;
  /** The version of the acceptable use policy accepted (0017); null: one before versions existed. */
  aup_version_id: ColumnType<number | null, number | null | undefined, number | null>;
  admin: Flag;
  enabled: Flag;
  /** The organisation that vouches for the user; reserved, null for now. */
  authority: string | null;
  /** The language the user chose ('en' | 'fr'), null until they choose (migration 0015). */
  locale: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TokenKind = 'session' | 'personal';

export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: TokenKind;
  name: string;
  /** SHA-256 (hex) of the secret half of `ID|SECRET`. */
  token_hash: string;
  /** JSON array of ability names, ["*"] for everything. */
  abilities: JsonText;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the single-use token mailed in the link. */
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface ActivityLogTable {
  id: Generated<number>;
  causer_id: number | null;
  description: string;
  subject_type: string | null;
  subject_id: number | null;
  /** JSON object; always has `severity`. */
  properties: JsonText;
  created_at: Timestamp;
}

export type TeamRole = 'owner' | 'manager' | 'member';
export type WorkspaceRole = 'manager' | 'member';

/** pending: to be applied to the cluster; ready: applied; error: the cluster refused it for good. */
export type ClusterState = 'pending' | 'ready' | 'error';

export interface TeamsTable {
  id: Generated<number>;
  /** Derived from the short name (lowercase letters and digits); unique. */
  name: string;
  fullname: string;
  shortname: string;
  affiliation: string | null;
  city: string | null;
  country: string | null;
  url: string | null;
  joining_reason: string | null;
  joining_category: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 0 while a platform admin has suspended the team: no rights in it nor in its workspaces (0007). */
  enabled: Generated<Flag>;
  /** The team's review date (0017): past it, its workspaces are suspended until it is renewed. Null: none. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The team quota (0019), Kubernetes quantities; null: no team quota for that resource. */
  quota_cpu: ColumnType<string | null, string | null | undefined, string | null>;
  quota_memory: ColumnType<string | null, string | null | undefined, string | null>;
  quota_storage: ColumnType<string | null, string | null | undefined, string | null>;
  quota_pods: ColumnType<number | null, number | null | undefined, number | null>;
  /** CPU core-hours the team may use per calendar month (0019); null: no allocation. */
  allocation_core_hours: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set while this month's allocation is used up (0019): no new pods in the team's workspaces. */
  allocation_used_up_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface TeamMembersTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  role: TeamRole;
  /** A disabled membership (0) gives no rights in the team. */
  enabled: Flag;
  created_at: Timestamp;
  /** When the membership ends (0017), as a manager's removal would; null: no end. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface WorkspacesTable {
  id: Generated<number>;
  team_id: number;
  /** Unique in the team; `^[a-z0-9][a-z0-9-]*[a-z0-9]$`. */
  name: string;
  label: string;
  description: string | null;
  /** `{team name}-{workspace name}`, at most 63 characters; unique. The cluster namespace. */
  namespace: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Whether the cluster has the namespace (reconciler, 0003). */
  cluster_state: Generated<ClusterState>;
  cluster_error: string | null;
  cluster_synced_at: Timestamp | null;
  /** Quota set by a platform admin (Kubernetes quantities, 0009); null = the default. */
  quota_cpu: string | null;
  quota_memory: string | null;
  quota_storage: string | null;
  quota_pods: number | null;
  /** When the workspace ends (0017); null: no end. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Set when it (or its team) ended: no access, no pods, until renewed (0017). */
  suspended_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** A quota granted until a date (0019): then the workspace returns to `quota_previous`. */
  quota_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** JSON {cpu, memory, storage, pods} of the quota columns before that grant (0019). */
  quota_previous: ColumnType<JsonText | null, JsonText | null | undefined, JsonText | null>;
}

export interface WorkspaceMembersTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  role: WorkspaceRole;
  created_at: Timestamp;
  /** Whether the cluster has the member's access (reconciler, 0003). */
  cluster_state: Generated<ClusterState>;
  cluster_error: string | null;
  cluster_synced_at: Timestamp | null;
}

/** A deleted workspace's namespace, still to delete in the cluster (reconciler, 0007). */
export interface ClusterDeletionsTable {
  id: Generated<number>;
  workspace_id: number;
  namespace: string;
  created_at: Timestamp;
  last_error: string | null;
}

/** Access to take away in the cluster after a membership was deleted (reconciler, 0005). */
export interface ClusterRevocationsTable {
  id: Generated<number>;
  workspace_id: number;
  namespace: string;
  user_id: number;
  created_at: Timestamp;
  last_error: string | null;
}

export type RequestType = 'CreateTeam' | 'JoinTeam' | 'CreateWorkspace' | 'JoinWorkspace' | 'RenewWorkspace' | 'RenewTeam' | 'QuotaIncrease';
export type RequestStatus = 'Pending' | 'Approved' | 'Denied' | 'Error';

export interface RequestsTable {
  id: Generated<number>;
  type: RequestType;
  status: RequestStatus;
  /** The requester. */
  user_id: number;
  /** The team concerned (CreateTeam: the created team, once approved). */
  team_id: number | null;
  /** The workspace concerned (CreateWorkspace: the created workspace, once approved). */
  workspace_id: number | null;
  /** The team or workspace name asked for. */
  object_name: string;
  /** Two pending requests with the same key are duplicates (partial unique index). */
  dedupe_key: string;
  /** JSON object: the submitted fields. */
  data: JsonText;
  message: string | null;
  decision_message: string | null;
  decided_by: number | null;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 'to install' until the first check-in, 'installing' while joining, then from the cluster's Node (docs/nodes-contract.md). */
export type NodeStatus = 'to install' | 'installing' | 'ok' | 'warning' | 'error' | 'unknown';

export interface NodesTable {
  id: Generated<number>;
  /** Null for a machine-first node not claimed yet. */
  owner_id: number | null;
  /** The Kubernetes Node name; null until the node asks for its bootstrap token. Unique. */
  name: string | null;
  type: string;
  dhcp: Flag;
  hostname: string | null;
  ipv4: string | null;
  ip_v6: string | null;
  notes: string | null;
  status: NodeStatus;
  /** Set while a platform admin has disabled (cordoned) the node. */
  disabled_at: Timestamp | null;
  /** SHA-256 (hex) of the node secret; unique. */
  secret_hash: string;
  /** Random input of the secret's derivation with APP_KEY (nodes/secrets.ts). */
  secret_salt: string;
  /** One-time machine-first claim code (6 letters); unique. */
  claim_code: string | null;
  claim_code_expires_at: Timestamp | null;
  /** JSON object: facts the agent reported and the cluster's nodeInfo. */
  info: JsonText;
  last_active_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The team the node is contributed to, for contributor credit (0019); null: none. */
  team_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A rate limit counter (http/throttle.ts): attempts reserved under a key in the current window. */
export interface ThrottlesTable {
  /** What is limited and for whom, e.g. `login:{email}|{address}` or `login-address:{address}`. */
  key: string;
  hits: number;
  /** When the window ends; a reservation after it starts a new window at 1. */
  resets_at: Timestamp;
}

/** Realtime bus messages too large for a NOTIFY payload (realtime/bus.ts). */
export interface RealtimeMessagesTable {
  id: Generated<number>;
  /** The message as JSON. */
  payload: string;
  created_at: Timestamp;
}

/** Mails written with the action that causes them, sent afterwards (mail/outbox.ts). */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  /** A sender's claim on the row until then; null when nobody is sending it. */
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked';

/** An invitation to a team and some of its workspaces (migration 0013). */
export interface InvitationsTable {
  id: Generated<number>;
  team_id: number;
  /** Trimmed and lowercased. */
  email: string;
  /** The team role given on acceptance. */
  role: TeamRole;
  /** JSON array of workspace ids of the team, joined as `member`. */
  workspace_ids: JsonText;
  invited_by: number | null;
  /** SHA-256 (hex) of the token mailed in the link; a resend replaces it. */
  token_hash: string;
  status: InvitationStatus;
  expires_at: Timestamp;
  /** When the last mail went out (creation or resend). */
  sent_at: Timestamp;
  accepted_by: number | null;
  accepted_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The end date the team membership gets on acceptance (0017); null: none. */
  membership_expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** An OpenID provider's account linked to a user (migration 0014); unique issuer + subject. */
export interface IdentitiesTable {
  id: Generated<number>;
  user_id: number;
  /** The configured provider's id at linking (OIDC_PROVIDERS). */
  provider: string;
  issuer: string;
  subject: string;
  /** The email the provider gave at linking; display only, never used to match. */
  email: string | null;
  linked_at: Timestamp;
  /** 'sign-up': made with the account by a sign-in; 'password': linked from the profile (0016). */
  linked_with: ColumnType<IdentityOrigin, IdentityOrigin | undefined, IdentityOrigin>;
}

export type IdentityOrigin = 'sign-up' | 'password';

export type OidcIntent = 'login' | 'link';

/** A redirect to a provider in progress (0014). */
export interface OidcStatesTable {
  id: Generated<number>;
  state_hash: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  /** SHA-256 of the cookie of the browser that started it. */
  browser_hash: string;
  intent: OidcIntent;
  /** Linking: who links. */
  user_id: number | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** The one-time code a sign-in hands to the console (0014). */
export interface OidcCodesTable {
  id: Generated<number>;
  code_hash: string;
  user_id: number;
  provider: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A published version of the acceptable use policy (0017). */
export interface PolicyVersionsTable {
  id: Generated<number>;
  text_en: string;
  text_fr: string;
  /** What changed, shown to people sent back to accept it. */
  summary: string;
  published_by: number | null;
  published_at: Timestamp;
}

/** A setting a platform admin changed (0017); `value` is JSON. */
export interface PlatformSettingsTable {
  key: string;
  value: JsonText;
  updated_by: number | null;
  updated_at: Timestamp;
}

/** A lifecycle warning sent (0017): unique per kind, subject and the end date it warned of. */
export interface LifecycleNoticesTable {
  id: Generated<number>;
  kind: string;
  subject_type: string;
  subject_id: number;
  due_at: Timestamp;
  sent_at: Timestamp;
}

/** What a workspace used in one hour (0019), written by the leader's accounting pass. */
/** `usage_hours` summed per workspace and UTC day, kept by the same accounting pass (migration 0021). */
export interface UsageDaysTable {
  workspace_id: number;
  team_id: number;
  /** The UTC day, "2026-11-27". */
  day: string;
  cpu_core_hours: number;
  memory_gib_hours: number;
}

/** `usage_hours` summed per team and UTC day. */
export interface UsageTeamDaysTable {
  team_id: number;
  day: string;
  cpu_core_hours: number;
  memory_gib_hours: number;
}

export interface UsageHoursTable {
  workspace_id: number;
  team_id: number;
  /** ISO 8601, the hour's start in UTC. */
  hour_start: Timestamp;
  cpu_core_hours: number;
  memory_gib_hours: number;
}

/** How far usage is accounted (0019): one row, id 1. */
export interface UsageAccountingTable {
  id: number;
  accounted_until: Timestamp;
}

export interface Database {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  password_resets: PasswordResetsTable;
  activity_log: ActivityLogTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  requests: RequestsTable;
  nodes: NodesTable;
  cluster_revocations: ClusterRevocationsTable;
  cluster_deletions: ClusterDeletionsTable;
  throttles: ThrottlesTable;
  realtime_messages: RealtimeMessagesTable;
  mail_outbox: MailOutboxTable;
  invitations: InvitationsTable;
  identities: IdentitiesTable;
  oidc_states: OidcStatesTable;
  oidc_codes: OidcCodesTable;
  policy_versions: PolicyVersionsTable;
  platform_settings: PlatformSettingsTable;
  lifecycle_notices: LifecycleNoticesTable;
  usage_hours: UsageHoursTable;
  usage_days: UsageDaysTable;
  usage_team_days: UsageTeamDaysTable;
  usage_accounting: UsageAccountingTable;
}

export type User = Selectable<UsersTable>;
export type AccessToken = Selectable<AccessTokensTable>;
export type ActivityEntry = Selectable<ActivityLogTable>;
export type Team = Selectable<TeamsTable>;
export type TeamMember = Selectable<TeamMembersTable>;
export type Workspace = Selectable<WorkspacesTable>;
export type WorkspaceMember = Selectable<WorkspaceMembersTable>;
export type Request = Selectable<RequestsTable>;
export type Invitation = Selectable<InvitationsTable>;
export type Identity = Selectable<IdentitiesTable>;
export type NodeRecord = Selectable<NodesTable>;
