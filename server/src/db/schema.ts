import type { Generated, Selectable } from 'kysely';

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
  admin: Flag;
  enabled: Flag;
  /** The organisation that vouches for the user; reserved, null for now. */
  authority: string | null;
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

export interface Database {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  password_resets: PasswordResetsTable;
  activity_log: ActivityLogTable;
}

export type User = Selectable<UsersTable>;
export type AccessToken = Selectable<AccessTokensTable>;
export type ActivityEntry = Selectable<ActivityLogTable>;
