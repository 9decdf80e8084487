import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database, NodeRecord, User } from '../db/schema.js';
import { fieldError, HttpError } from '../http/errors.js';
import { idField } from '../http/schemas.js';
import { nodeSubject } from './records.js';

// Contributor credit (teams/quota.ts): a node's owner says which of their teams the node counts
// for; while it is Ready, the team's quota grows by its capacity times the platform's factors.

export const ONLY_THE_OWNER = 'Only the owner of this node may choose the team it counts for.';

/** PATCH /api/nodes/{id}: the team the node counts for (null: none). */
export const nodeTeamBody = z.object({ team_id: idField('team_id').nullable() });

/** Sets the node's team: only its owner, and only among the teams they belong to (enabled). */
export async function setNodeTeam(db: Kysely<Database>, user: User, node: NodeRecord, teamId: number | null): Promise<NodeRecord> {
  if (node.owner_id !== user.id) throw new HttpError(403, ONLY_THE_OWNER);
  if (teamId !== null) {
    const member = await db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select('tm.id')
      .where('tm.team_id', '=', teamId)
      .where('tm.user_id', '=', user.id)
      .where('tm.enabled', '=', 1)
      .where('t.enabled', '=', 1)
      .executeTakeFirst();
    if (!member) throw fieldError('team_id', 'The selected team_id is invalid.');
  }
  return db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('nodes').set({ team_id: teamId, updated_at: timestamp() }).where('id', '=', node.id).returningAll().executeTakeFirstOrThrow();
    await recordActivity(trx, {
      causerId: user.id,
      description: 'node team changed',
      subject: nodeSubject(node.id),
      properties: { from: node.team_id, to: teamId },
    });
    return updated;
  });
}
