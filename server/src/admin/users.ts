import type { Kysely } from 'kysely';
import { activityCausedBy, presentActivity, recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError, fieldError, notFound } from '../http/errors.js';
import { presentedStatus } from '../nodes/presenter.js';
import { type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import { type EnabledChange, LAST_ADMIN_MESSAGE, SELF_DISABLE_MESSAGE, changeEnabled, lockEnabledAdmins } from './userBatch.js';

// What a platform admin does to one user: look at everything about them, disable or enable
// the account, grant or remove admin rights, revoke personal tokens. The set-based work of
// disabling and enabling lives in userBatch.ts, shared with the bulk action (userBulk.ts).

export const SELF_DEMOTE_MESSAGE = 'You cannot remove your own admin rights.';

/** What an admin's change to a user reads and what follows it (the app's context). */
export interface UserServices extends AfterCommitServices {
  db: Kysely<Database>;
}

const RECENT_ACTIVITY = 20;

/** Everything a platform admin sees of one user (never a password hash or token secret). */
export async function userDetail(db: Kysely<Database>, id: number) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname', 'email', 'email_verified_at', 'aup_accepted_at', 'admin', 'enabled', 'authority', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!user) throw notFound();
  const now = timestamp();
  const [teams, workspaces, tokens, sessions, nodes, activity, lastLogin] = await Promise.all([
    db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['t.id', 't.name', 't.fullname', 'tm.role', 'tm.enabled'])
      .where('tm.user_id', '=', id)
      .orderBy('t.name')
      .execute(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .innerJoin('teams as t', 't.id', 'w.team_id')
      .select(['w.id', 'w.name', 'w.namespace', 't.id as team_id', 't.name as team_name', 'wm.role', 'wm.cluster_state'])
      .where('wm.user_id', '=', id)
      .orderBy('w.namespace')
      .execute(),
    db
      .selectFrom('access_tokens')
      .select(['id', 'name', 'created_at', 'last_used_at', 'expires_at'])
      .where('user_id', '=', id)
      .where('kind', '=', 'personal')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('access_tokens')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', id)
      .where('kind', '=', 'session')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('nodes')
      .select(['id', 'name', 'hostname', 'type', 'status', 'disabled_at', 'last_active_at', 'created_at'])
      .where('owner_id', '=', id)
      .orderBy('id')
      .execute(),
    activityCausedBy(db, id, RECENT_ACTIVITY),
    // The log's entry outlives the session token (a logout or a disable deletes tokens).
    db
      .selectFrom('activity_log')
      .select('created_at')
      .where('causer_id', '=', id)
      .where('description', '=', 'logged in')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    id: user.id,
    name: `${user.firstname} ${user.lastname}`,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    email_verified_at: user.email_verified_at,
    aup_accepted_at: user.aup_accepted_at,
    admin: user.admin === 1,
    enabled: user.enabled === 1,
    authority: user.authority,
    created_at: user.created_at,
    updated_at: user.updated_at,
    last_login_at: lastLogin?.created_at ?? null,
    last_login_source: 'activity log' as const,
    teams: teams.map((team) => ({ id: team.id, name: team.name, fullname: team.fullname, role: team.role, enabled: team.enabled === 1 })),
    workspaces: workspaces.map((workspace) => ({
      id: workspace.id,
      name: workspace.name,
      namespace: workspace.namespace,
      team: { id: workspace.team_id, name: workspace.team_name },
      role: workspace.role,
      cluster_state: workspace.cluster_state,
    })),
    tokens,
    nodes: nodes.map((node) => ({
      id: node.id,
      name: node.name,
      hostname: node.hostname,
      type: node.type,
      status: presentedStatus(node),
      last_active_at: node.last_active_at,
      created_at: node.created_at,
    })),
    activity: activity.map(presentActivity),
    // What disabling would revoke, for the console's confirmation.
    counts: {
      sessions: Number(sessions.count),
      personal_tokens: tokens.length,
      kubeconfigs: workspaces.length,
      nodes: nodes.length,
    },
  };
}

export type UserDetail = Awaited<ReturnType<typeof userDetail>>;

/**
 * PATCH /api/admin/users/{id}: `enabled` through the batch rules (userBatch.ts), `admin` here.
 * Refusals are 422 on the field (oneself) or 409 (the last enabled admin).
 */
export async function updateUser(
  services: UserServices,
  actorId: number,
  id: number,
  changes: { enabled?: boolean; admin?: boolean },
): Promise<UserDetail> {
  const { db } = services;
  if (id === actorId && changes.enabled === false) throw fieldError('enabled', SELF_DISABLE_MESSAGE);
  if (id === actorId && changes.admin === false) throw fieldError('admin', SELF_DEMOTE_MESSAGE);

  let enabledChange: EnabledChange | undefined;
  let adminChanged = false;
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'admin', 'enabled']).where('id', '=', id).executeTakeFirst();
    if (!user) throw notFound();
    if (changes.admin !== undefined && (user.admin === 1) !== changes.admin) {
      if (!changes.admin && user.enabled === 1) {
        const admins = await lockEnabledAdmins(trx);
        if (admins.length <= 1) throw new HttpError(409, LAST_ADMIN_MESSAGE);
      }
      await trx.updateTable('users').set({ admin: changes.admin ? 1 : 0, updated_at: timestamp() }).where('id', '=', id).execute();
      await recordActivity(trx, {
        causerId: actorId,
        description: changes.admin ? 'admin rights granted' : 'admin rights removed',
        subject: { type: 'user', id },
        severity: 'warning',
      });
      adminChanged = true;
    }
    if (changes.enabled !== undefined) {
      enabledChange = await changeEnabled(trx, { actorId, ids: [id], enable: changes.enabled, dryRun: false });
      const [result] = enabledChange.results;
      if (result.status === 'forbidden') throw new HttpError(409, result.message ?? LAST_ADMIN_MESSAGE);
    }
  });
  // After the commit: open realtime subscriptions are checked again (a disabled account's
  // end; admin channels follow the flag), and the reconciler revokes or restores cluster access.
  const enabledChanged = (enabledChange?.changedIds.length ?? 0) > 0;
  applyAfterCommit(services, { rightsChanged: adminChanged || enabledChanged ? [id] : [], clusterSync: enabledChanged });
  return userDetail(db, id);
}

/**
 * Revokes one personal token of the user (tokenId) or all of them; answers how many ended.
 * 404 for an unknown user, or a token that is not one of theirs.
 */
export async function revokeUserTokens(services: UserServices, actorId: number, userId: number, tokenId?: number): Promise<number> {
  const { db } = services;
  const revoked = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    const tokens = await trx
      .deleteFrom('access_tokens')
      .where('user_id', '=', userId)
      .where('kind', '=', 'personal')
      .$if(tokenId !== undefined, (qb) => qb.where('id', '=', tokenId!))
      .returning(['id', 'name'])
      .execute();
    if (tokenId !== undefined && tokens.length === 0) throw notFound();
    if (tokens.length > 0) {
      await recordActivity(trx, {
        causerId: actorId,
        description: 'access tokens revoked by an admin',
        subject: { type: 'user', id: userId },
        severity: 'warning',
        properties: { personal_tokens: tokens.length, names: tokens.map((token) => token.name) },
      });
    }
    return tokens.length;
  });
  // Subscriptions made with those tokens end now rather than at the next periodic check.
  applyAfterCommit(services, { rightsChanged: revoked > 0 ? [userId] : [] });
  return revoked;
}
