import type { Kysely } from 'kysely';
import { recordActivity, type Severity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database, Request, RequestStatus } from '../db/schema.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import type { Access } from '../access/access.js';
import { ADMINS_DECIDE, mayDecide, maySee } from '../access/requests.js';
import type { LifecycleSettings } from '../config/config.js';
import { lifecycleSettings } from '../config/lifecycleSettings.js';
import type { AppContext } from '../context.js';
import { newWorkspaceEnd } from '../workspaces/expiry.js';
import { renewedEnd, setTeamEnd, setWorkspaceEnd } from '../workspaces/renewal.js';
import { DAY_MS } from '../clock.js';
import { NO_QUOTA } from '../cluster/quota.js';
import { approveQuotaIncrease } from './quotaRequests.js';
import { assertTeamRoom, effectiveAmounts } from '../teams/quota.js';
import { addTeamMember, findTeam, findTeamByName, insertTeam, type NewTeam } from '../teams/teams.js';
import { addWorkspaceMember, findWorkspaceByName, insertWorkspace } from '../workspaces/workspaces.js';

export const MEMBERSHIP_END_ONLY_FOR_JOIN = 'An end date applies only to approving a request to join a team.';

// Who decides which request, and the decision itself (docs/api-contract.md, "Who decides").
//   CreateTeam      → platform admins
//   JoinTeam        → the team's owner/managers
//   CreateWorkspace → the team's owner/managers
//   JoinWorkspace   → the workspace's managers and the team's owner/managers
//   RenewWorkspace  → the team's owner/managers up to the default lifetime; longer: platform admins
//   RenewTeam       → platform admins
//   QuotaIncrease   → the team's owner/managers within what the team has left; beyond: platform admins
// Platform admins may decide anything. Nobody decides their own request: a request its
// requester could decide is approved at once when it is made (see requests.ts).

export type Decision = 'approve' | 'deny';

export const ALREADY_DECIDED = 'This request has already been decided.';
export const NOT_YOURS_TO_DECIDE = 'You may not decide this request.';

type Routed = Pick<Request, 'type' | 'team_id' | 'workspace_id'>;

export interface Decider {
  id: number;
  email: string;
  firstname: string;
  /** Their mails' language (users.locale; null: English). */
  locale: string | null;
}

/**
 * The people to tell about a new request: platform admins for CreateTeam; the team's
 * owner/managers for the others, plus the workspace's managers for JoinWorkspace. Only
 * enabled users and enabled team memberships; never the requester.
 */
export async function whoMayDecide(db: Kysely<Database>, request: Routed & Pick<Request, 'user_id' | 'data'>): Promise<Decider[]> {
  const found: Decider[] = [];
  const adminsOnly = request.type === 'RenewTeam' || ((request.type === 'RenewWorkspace' || request.type === 'QuotaIncrease') && request.data.includes(ADMINS_DECIDE));
  if (request.type === 'CreateTeam' || adminsOnly) {
    found.push(
      ...(await db.selectFrom('users').select(['id', 'email', 'firstname', 'locale']).where('admin', '=', 1).where('enabled', '=', 1).execute()),
    );
  } else if (request.team_id !== null) {
    found.push(
      ...(await db
        .selectFrom('team_members as tm')
        .innerJoin('users as u', 'u.id', 'tm.user_id')
        .select(['u.id', 'u.email', 'u.firstname', 'u.locale'])
        .where('tm.team_id', '=', request.team_id)
        .where('tm.role', 'in', ['owner', 'manager'])
        .where('tm.enabled', '=', 1)
        .where('u.enabled', '=', 1)
        .execute()),
    );
  }
  if (request.type === 'JoinWorkspace' && request.workspace_id !== null) {
    found.push(
      ...(await db
        .selectFrom('workspace_members as wm')
        .innerJoin('users as u', 'u.id', 'wm.user_id')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
        .select(['u.id', 'u.email', 'u.firstname', 'u.locale'])
        .where('wm.workspace_id', '=', request.workspace_id)
        .where('wm.role', '=', 'manager')
        .where('u.enabled', '=', 1)
        .where((eb) => eb.or([eb('tm.enabled', 'is', null), eb('tm.enabled', '=', 1)]))
        .execute()),
    );
  }
  const unique = new Map(found.filter((user) => user.id !== request.user_id).map((user) => [user.id, user]));
  return [...unique.values()];
}

export const severityOf = (status: RequestStatus): Severity =>
  status === 'Denied' ? 'warning' : status === 'Error' ? 'error' : 'info';

/**
 * Why the actor may not decide this request now, or null when they may: 404 when they may
 * not see it (or there is none), 403 when they may see but not decide it, 409 when it is no
 * longer Pending. decideRequest and the dry run of POST /api/requests/bulk both ask this.
 */
export function decisionRefusal(
  access: Access,
  request: (Routed & Pick<Request, 'user_id' | 'status'>) | undefined,
): HttpError | null {
  if (!request || !maySee(access, request)) return notFound();
  if (!mayDecide(access, request)) return new HttpError(403, NOT_YOURS_TO_DECIDE);
  if (request.status !== 'Pending') return new HttpError(409, ALREADY_DECIDED);
  return null;
}

/**
 * Decides a request the actor may see: 404 when they may not see it, 403 when they may see
 * but not decide it, 409 when it is no longer Pending. The decision and its membership
 * effects happen in one transaction.
 */
export async function decideRequest(
  db: Kysely<Database>,
  input: {
    requestId: number;
    access: Access;
    action: Decision;
    message: string | null;
    terms: ApprovalTerms;
    membershipExpiresAt?: string | null;
    /** A QuotaIncrease approved by a platform admin: raise the team quota as much as it needs. */
    raiseTeamQuota?: boolean;
  },
  /** Runs in the decision's transaction after it (the requester's mail is written there). */
  inTransaction?: (trx: Kysely<Database>, decided: Request) => Promise<void>,
): Promise<Request> {
  const request = await db.selectFrom('requests').selectAll().where('id', '=', input.requestId).executeTakeFirst();
  const refusal = decisionRefusal(input.access, request);
  if (refusal || !request) throw refusal ?? notFound();
  if (input.membershipExpiresAt && request.type !== 'JoinTeam') throw fieldError('membership_expires_at', MEMBERSHIP_END_ONLY_FOR_JOIN);
  return db.transaction().execute(async (trx) => {
    const decided = await applyDecision(trx, request, {
      deciderId: input.access.userId,
      action: input.action,
      message: input.message,
      automatic: false,
      terms: input.terms,
      membershipExpiresAt: input.membershipExpiresAt ?? null,
      raiseTeamQuota: input.raiseTeamQuota ?? false,
    });
    await inTransaction?.(trx, decided);
    return decided;
  });
}

/**
 * Inside a transaction: moves the request from Pending to Approved or Denied (conditionally,
 * so of two concurrent decisions exactly one wins; the other gets 409), applies the effects
 * of an approval, then `afterDecisionEffects`.
 */
export async function applyDecision(
  trx: Kysely<Database>,
  request: Request,
  decision: {
    deciderId: number;
    action: Decision;
    message: string | null;
    automatic: boolean;
    terms: ApprovalTerms;
    membershipExpiresAt?: string | null;
    raiseTeamQuota?: boolean;
  },
): Promise<Request> {
  const now = timestamp();
  const status: RequestStatus = decision.action === 'approve' ? 'Approved' : 'Denied';
  let decided = await trx
    .updateTable('requests')
    .set({ status, decided_by: decision.deciderId, decided_at: now, decision_message: decision.message, updated_at: now })
    .where('id', '=', request.id)
    .where('status', '=', 'Pending')
    .returningAll()
    .executeTakeFirst();
  if (!decided) throw new HttpError(409, ALREADY_DECIDED);

  if (status === 'Approved') {
    const created = await applyApproval(trx, decided, decision.deciderId, decision.terms, decision.membershipExpiresAt ?? null, decision.raiseTeamQuota ?? false);
    if (created) {
      decided = await trx.updateTable('requests').set(created).where('id', '=', decided.id).returningAll().executeTakeFirstOrThrow();
    }
  }
  await afterDecisionEffects(trx, decided, { automatic: decision.automatic });
  return decided;
}

/**
 * What an approval's end dates are measured from: the clock's now and the lifecycle settings
 * (a new team's review date, a new workspace's lifetime; docs/lifecycle.md).
 */
export interface ApprovalTerms {
  now: Date;
  settings: LifecycleSettings;
}

/** The terms as they hold now. */
export async function approvalTerms(context: Pick<AppContext, 'db' | 'clock' | 'config'>): Promise<ApprovalTerms> {
  return { now: context.clock.now(), settings: await lifecycleSettings(context.db, context.config.lifecycleDefaults) };
}

/** The membership effects of an approval; answers the ids of a team or workspace it created. */
async function applyApproval(
  trx: Kysely<Database>,
  request: Request,
  deciderId: number,
  terms: ApprovalTerms,
  /** A JoinTeam approved with an end date (memberships that end). */
  membershipExpiresAt: string | null = null,
  raiseTeamQuota = false,
): Promise<{ team_id: number } | { workspace_id: number } | null> {
  const data = JSON.parse(request.data) as Record<string, unknown>;
  switch (request.type) {
    case 'CreateTeam': {
      if (await findTeamByName(trx, request.object_name)) throw new HttpError(409, 'A team with this name already exists.');
      const team = await insertTeam(trx, teamFromData(request.object_name, data), deciderId);
      const review = new Date(terms.now.getTime() + terms.settings.team_review_days * DAY_MS).toISOString();
      await trx.updateTable('teams').set({ expires_at: review }).where('id', '=', team.id).execute();
      await addTeamMember(trx, { teamId: team.id, userId: request.user_id, role: 'owner', causerId: deciderId });
      return { team_id: team.id };
    }
    case 'JoinTeam':
      if (request.team_id === null) throw new HttpError(409, 'The team no longer exists.');
      await addTeamMember(trx, { teamId: request.team_id, userId: request.user_id, role: 'member', causerId: deciderId, expiresAt: membershipExpiresAt });
      return null;
    case 'CreateWorkspace': {
      const team = request.team_id === null ? undefined : await findTeam(trx, request.team_id);
      if (!team) throw new HttpError(409, 'The team no longer exists.');
      if (await findWorkspaceByName(trx, team.id, request.object_name)) {
        throw new HttpError(409, 'A workspace with this name already exists in this team.');
      }
      // A new workspace gets the default quota: it must fit in what its team has left.
      await assertTeamRoom(trx, { teamId: team.id, needs: effectiveAmounts(NO_QUOTA) });
      const workspace = await insertWorkspace(trx, {
        team,
        name: request.object_name,
        label: typeof data.label === 'string' ? data.label : request.object_name,
        description: typeof data.description === 'string' ? data.description : null,
        causerId: deciderId,
      });
      await addWorkspaceMember(trx, { workspaceId: workspace.id, userId: request.user_id, role: 'manager', causerId: deciderId });
      const end = newWorkspaceEnd(terms.now, terms.settings.workspace_lifetime_days, team.expires_at);
      await trx.updateTable('workspaces').set({ expires_at: end }).where('id', '=', workspace.id).execute();
      return { workspace_id: workspace.id };
    }
    case 'JoinWorkspace':
      if (request.workspace_id === null) throw new HttpError(409, 'The workspace no longer exists.');
      await addWorkspaceMember(trx, { workspaceId: request.workspace_id, userId: request.user_id, role: 'member', causerId: deciderId });
      return null;
    case 'RenewWorkspace': {
      const workspace = request.workspace_id === null ? undefined : await trx.selectFrom('workspaces').select(['id', 'expires_at']).where('id', '=', request.workspace_id).executeTakeFirst();
      if (!workspace) throw new HttpError(409, 'The workspace no longer exists.');
      const end = typeof data.until === 'string' ? data.until : renewedEnd(workspace.expires_at, terms.now, Number(data.days));
      await setWorkspaceEnd(trx, { workspaceId: workspace.id, expiresAt: end, now: terms.now, causerId: deciderId, cause: 'renewal approved', requestId: request.id });
      return null;
    }
    case 'RenewTeam': {
      const team = request.team_id === null ? undefined : await findTeam(trx, request.team_id);
      if (!team) throw new HttpError(409, 'The team no longer exists.');
      const end = renewedEnd(team.expires_at, terms.now, terms.settings.team_review_days);
      await setTeamEnd(trx, { teamId: team.id, expiresAt: end, now: terms.now, causerId: deciderId, cause: 'renewal approved', requestId: request.id });
      return null;
    }
    case 'QuotaIncrease':
      await approveQuotaIncrease(trx, request, { deciderId, raiseTeamQuota });
      return null;
  }
}

function teamFromData(name: string, data: Record<string, unknown>): NewTeam {
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null);
  return {
    name,
    fullname: text('fullname') ?? name,
    shortname: text('shortname') ?? name,
    affiliation: text('affiliation'),
    city: text('city'),
    country: text('country'),
    url: text('url'),
    joining_reason: text('joining_reason'),
    joining_category: text('joining_category'),
  };
}

/**
 * THE hook point for what a decision means outside the database. It records the decision in
 * the activity log and, for an approved CreateWorkspace / JoinWorkspace, marks the workspace
 * and the membership `pending` for the cluster reconciler (cluster/reconciler.ts). It never
 * calls the cluster (this runs inside the decision's transaction): it asks the running
 * reconcilers for a pass, which they make shortly after, once the transaction has committed.
 */
export async function afterDecisionEffects(trx: Kysely<Database>, request: Request, options: { automatic: boolean }): Promise<void> {
  if (request.status === 'Approved' && request.workspace_id !== null) {
    if (request.type === 'CreateWorkspace') {
      await trx.updateTable('workspaces').set({ cluster_state: 'pending', cluster_error: null }).where('id', '=', request.workspace_id).execute();
    }
    if (request.type === 'CreateWorkspace' || request.type === 'JoinWorkspace') {
      await trx
        .updateTable('workspace_members')
        .set({ cluster_state: 'pending', cluster_error: null })
        .where('workspace_id', '=', request.workspace_id)
        .where('user_id', '=', request.user_id)
        .execute();
      // The reconciler binds the access once this commits (decisionEffects in effects.ts).
    }
  }
  await recordActivity(trx, {
    causerId: request.decided_by,
    description: `request ${request.status.toLowerCase()}`,
    subject: { type: 'request', id: request.id },
    severity: severityOf(request.status),
    properties: {
      type: request.type,
      status: request.status,
      requester_id: request.user_id,
      team_id: request.team_id,
      workspace_id: request.workspace_id,
      object_name: request.object_name,
      automatic: options.automatic,
    },
  });
}
