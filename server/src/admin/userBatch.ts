import type { Kysely } from 'kysely';
import { dialectOf, timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { voidPendingFlows } from '../oidc/identityRights.js';

// Disabling and enabling accounts, set-based over a batch of ids inside the caller's
// transaction: a handful of statements whatever the batch's size (no per-user round trips),
// so a bulk action over thousands of users stays well under a second or two.
//
// Disabling keeps the person's data and:
// - deletes their sessions and personal tokens (401 from then on; authenticateToken also
//   refuses any token of a disabled user);
// - marks their workspace memberships `pending`, so the reconciler's next pass revokes the
//   service accounts (it voids access for a disabled user), which voids downloaded kubeconfigs;
// - ends their realtime subscriptions and refuses their nodes' agent calls: the callers do
//   the first after the commit (Broadcaster.rightsChanged), nodes/agentRoutes.ts the second;
// - voids what the person had started and could finish later: unused password reset links,
//   institutional linkings in progress and sign-in codes not yet exchanged
//   (oidc/identityRights.ts voidPendingFlows; a sign-in still at the provider is refused at
//   its callback, which checks the account).
// Enabling marks the memberships pending again, so access is ensured again (with new service
// accounts: old kubeconfigs stay void, the person downloads new ones).

export const SELF_DISABLE_MESSAGE = 'You cannot disable your own account.';
export const LAST_ADMIN_MESSAGE = 'This is the last enabled platform admin: make someone else an admin first.';

export type ItemStatus = 'done' | 'unchanged' | 'forbidden' | 'not_found';

export interface ItemResult {
  id: number;
  status: ItemStatus;
  message?: string;
}

export interface Revoked {
  sessions: number;
  personal_tokens: number;
  kubeconfigs: number;
}

export interface EnabledChange {
  results: ItemResult[];
  /** The ids whose account changed (or, in a dry run, would). */
  changedIds: number[];
  /** Disabling: what was (would be) revoked. Enabling: kubeconfigs = memberships restored. */
  revoked: Revoked;
}

type Db = Kysely<Database>;

/**
 * The enabled platform admins, locked on PostgreSQL until the transaction ends, so that two
 * admins disabling or demoting each other at once cannot leave nobody (SQLite transactions
 * are serialized already).
 */
export function lockEnabledAdmins(trx: Db) {
  return trx
    .selectFrom('users')
    .select('id')
    .where('admin', '=', 1)
    .where('enabled', '=', 1)
    .$if(dialectOf(trx) === 'postgres', (qb) => qb.forUpdate())
    .execute();
}

const countBy = (rows: { user_id: number }[]) => {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.user_id, (counts.get(row.user_id) ?? 0) + 1);
  return counts;
};

export async function changeEnabled(
  trx: Db,
  options: { actorId: number; ids: number[]; enable: boolean; dryRun: boolean; bulk?: boolean },
): Promise<EnabledChange> {
  const { actorId, ids, enable, dryRun } = options;
  const revoked: Revoked = { sessions: 0, personal_tokens: 0, kubeconfigs: 0 };
  if (ids.length === 0) return { results: [], changedIds: [], revoked };
  const users = await trx.selectFrom('users').select(['id', 'admin', 'enabled']).where('id', 'in', ids).execute();
  const byId = new Map(users.map((user) => [user.id, user]));
  const wanted = enable ? 1 : 0;

  // The admins this batch would disable must leave at least one enabled admin. The actor is
  // one and is never disabled here, so this only bites in a race with another admin.
  let adminsLeft = Number.POSITIVE_INFINITY;
  if (!enable && users.some((user) => user.admin === 1 && user.enabled === 1 && user.id !== actorId)) {
    adminsLeft = (await lockEnabledAdmins(trx)).length;
  }

  const results: ItemResult[] = [];
  const changedIds: number[] = [];
  for (const id of ids) {
    const user = byId.get(id);
    if (!user) results.push({ id, status: 'not_found', message: 'Not found.' });
    else if (!enable && id === actorId) results.push({ id, status: 'forbidden', message: SELF_DISABLE_MESSAGE });
    else if (user.enabled === wanted) results.push({ id, status: 'unchanged' });
    else if (!enable && user.admin === 1 && adminsLeft <= 1) results.push({ id, status: 'forbidden', message: LAST_ADMIN_MESSAGE });
    else {
      if (!enable && user.admin === 1) adminsLeft--;
      results.push({ id, status: 'done' });
      changedIds.push(id);
    }
  }
  if (changedIds.length === 0) return { results, changedIds, revoked };

  if (dryRun) {
    const [tokens, memberships] = await Promise.all([
      enable
        ? []
        : trx.selectFrom('access_tokens').select(['kind', (eb) => eb.fn.countAll<number>().as('count')]).where('user_id', 'in', changedIds).groupBy('kind').execute(),
      trx.selectFrom('workspace_members').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', 'in', changedIds).executeTakeFirstOrThrow(),
    ]);
    for (const row of tokens) {
      if (row.kind === 'session') revoked.sessions += Number(row.count);
      else revoked.personal_tokens += Number(row.count);
    }
    revoked.kubeconfigs = Number(memberships.count);
    return { results, changedIds, revoked };
  }

  const now = timestamp();
  await trx.updateTable('users').set({ enabled: wanted, updated_at: now }).where('id', 'in', changedIds).execute();
  const tokens = enable ? [] : await trx.deleteFrom('access_tokens').where('user_id', 'in', changedIds).returning(['user_id', 'kind']).execute();
  if (!enable) await voidPendingFlows(trx, changedIds);
  // The reconciler applies the user's new state to each membership on its next pass.
  const memberships = await trx
    .updateTable('workspace_members')
    .set({ cluster_state: 'pending', cluster_error: null })
    .where('user_id', 'in', changedIds)
    .returning('user_id')
    .execute();
  const sessions = countBy(tokens.filter((token) => token.kind === 'session'));
  const personal = countBy(tokens.filter((token) => token.kind === 'personal'));
  const kubeconfigs = countBy(memberships);
  revoked.sessions = tokens.filter((token) => token.kind === 'session').length;
  revoked.personal_tokens = tokens.length - revoked.sessions;
  revoked.kubeconfigs = memberships.length;

  // One audit entry per account, written in one statement.
  await trx
    .insertInto('activity_log')
    .values(
      changedIds.map((id) => ({
        causer_id: actorId,
        description: enable ? 'user enabled' : 'user disabled',
        subject_type: 'user',
        subject_id: id,
        properties: JSON.stringify(
          enable
            ? { workspaces: kubeconfigs.get(id) ?? 0, bulk: options.bulk ?? false, severity: 'warning' }
            : {
                sessions: sessions.get(id) ?? 0,
                personal_tokens: personal.get(id) ?? 0,
                kubeconfigs: kubeconfigs.get(id) ?? 0,
                bulk: options.bulk ?? false,
                severity: 'warning',
              },
        ),
        created_at: now,
      })),
    )
    .execute();
  return { results, changedIds, revoked };
}
