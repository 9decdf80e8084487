import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database, Team, TeamRole } from '../db/schema.js';

// The team records: lookups, creating a team, adding a member. Deciding a request
// (requests/routing.ts), accepting an invitation, the members' and the admins' routes build on
// them, so this folder imports nothing above the audit log and the base layers; the teams as
// people browse them, with their pending requests, are teamPages/.

/** A team by id (all digits) or by name, as `/api/tenants/{id-or-name}` addresses it. */
export function findTeamByIdOrName(db: Kysely<Database>, idOrName: string): Promise<Team | undefined> {
  const query = db.selectFrom('teams').selectAll();
  return (/^\d{1,9}$/.test(idOrName) ? query.where('id', '=', Number(idOrName)) : query.where('name', '=', idOrName)).executeTakeFirst();
}

export function findTeam(db: Kysely<Database>, id: number): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTeamByName(db: Kysely<Database>, name: string): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
}

/** A team's fields as decided; the database fills in the id and the timestamps. */
export type NewTeam = Omit<Team, 'id' | 'created_at' | 'updated_at' | 'enabled' | 'expires_at' | TeamQuotaColumn> & { expires_at?: string | null };

/** The team quota and allocation columns (0019): set by platform admins, never by a team request. */
type TeamQuotaColumn = 'quota_cpu' | 'quota_memory' | 'quota_storage' | 'quota_pods' | 'allocation_core_hours' | 'allocation_used_up_at';

/** Creates a team (pass the decision's transaction). The name must be free (unique index). */
export async function insertTeam(trx: Kysely<Database>, team: NewTeam, causerId: number): Promise<Team> {
  const now = timestamp();
  const created = await trx
    .insertInto('teams')
    .values({ ...team, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordActivity(trx, { causerId, description: 'team created', subject: { type: 'team', id: created.id }, properties: { name: created.name } });
  return created;
}

/**
 * Makes the user a member of the team with `role`; an existing membership is left as it is
 * (false). Records the change.
 */
export async function addTeamMember(
  trx: Kysely<Database>,
  input: { teamId: number; userId: number; role: TeamRole; causerId: number; expiresAt?: string | null },
): Promise<boolean> {
  const existing = await trx
    .selectFrom('team_members')
    .select('id')
    .where('team_id', '=', input.teamId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (existing) return false;
  await trx
    .insertInto('team_members')
    .values({ team_id: input.teamId, user_id: input.userId, role: input.role, enabled: 1, expires_at: input.expiresAt ?? null, created_at: timestamp() })
    .execute();
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'team member added',
    subject: { type: 'team', id: input.teamId },
    properties: { user_id: input.userId, role: input.role, ...(input.expiresAt ? { expires_at: input.expiresAt } : {}) },
  });
  return true;
}

/** Any membership of the user in the team, enabled or not. */
export async function isTeamMember(db: Kysely<Database>, teamId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('team_members').select('id').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
