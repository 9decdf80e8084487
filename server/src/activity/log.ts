import type { Kysely } from 'kysely';
import { timestamp } from '../db/database.js';
import type { ActivityEntry, Database } from '../db/schema.js';

export type Severity = 'info' | 'warning' | 'error';

/** What an entry is about, e.g. `{type: 'access_token', id: 7}`. */
export interface ActivitySubject {
  type: string;
  id: number;
}

export interface ActivityInput {
  /** Who did it; null when nobody is known (a failed login for an unknown address). */
  causerId: number | null;
  description: string;
  subject?: ActivitySubject | null;
  severity?: Severity;
  /** Extra facts worth keeping. Never secrets: no passwords, tokens or links. */
  properties?: Record<string, unknown>;
}

/** Writes one audit entry. Pass a transaction to make the entry part of the change it records. */
export async function recordActivity(db: Kysely<Database>, input: ActivityInput): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      causer_id: input.causerId,
      description: input.description,
      subject_type: input.subject?.type ?? null,
      subject_id: input.subject?.id ?? null,
      properties: JSON.stringify({ ...input.properties, severity: input.severity ?? 'info' }),
      created_at: timestamp(),
    })
    .execute();
}

/** The entries a user caused, newest first. */
export async function activityCausedBy(db: Kysely<Database>, userId: number, limit: number): Promise<ActivityEntry[]> {
  return db
    .selectFrom('activity_log')
    .selectAll()
    .where('causer_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function presentActivity(entry: ActivityEntry) {
  return {
    id: entry.id,
    description: entry.description,
    subject_type: entry.subject_type,
    subject_id: entry.subject_id,
    properties: JSON.parse(entry.properties) as Record<string, unknown> & { severity: Severity },
    created_at: entry.created_at,
  };
}
