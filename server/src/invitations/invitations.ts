import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import type { Database, Invitation, Team, TeamRole, User } from '../db/schema.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { MAX_ID } from '../http/schemas.js';
import { enqueueMail } from '../mail/outbox.js';
import { RealtimeEvent } from '../broadcasting/broadcaster.js';
import { type Access, TEAM_ROLE_RANK } from '../access/access.js';
import { managesTeamMembers } from '../memberships/members.js';
import { checkEndDate } from '../teams/membershipEnd.js';
import { addTeamMember, findTeam } from '../teams/teams.js';
import { markEmailVerified } from '../users/users.js';
import { addWorkspaceMember } from '../workspaces/workspaces.js';
import { isLocale, type Locale } from '../i18n/messages.js';
import { invitationBudgetKeys, type InvitationLimits, reserveInvitationMail } from './budget.js';
import { invitationMail } from './mail.js';
import { invitationGrantRefusal } from './rights.js';

export type { InvitationLimits } from './budget.js';

// Invitations to a team and some of its workspaces (docs/api-contract.md,
// "Invitations"). The team's owners and managers (and platform admins) invite by email with a
// team role no higher than their own; the mail carries APP_URL/invitations/{id}/{token}, where
// the token is random, stored only as a SHA-256, works once and expires after 7 days (a resend
// replaces it). Accepting needs a signed-in person with the invited address: they join the
// team with the role and the workspaces as `member` at once, as an approved request would
// (same membership functions, activity entries, cluster reconciler, realtime re-check), provided
// the team is enabled and the inviter may still give the role (rights.ts). Mails are counted
// against the budgets of budget.ts.

export const INVITATION_DAYS = 7;
export const INVALID_INVITATION = 'This invitation link is invalid.';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask the team for a new one.';
export const INVITATION_USED = 'This invitation has already been used.';
export const INVITATION_REVOKED = 'This invitation has been withdrawn.';
export const NOT_AN_INVITER = "Only the team's owners and managers can invite people.";
export const ABOVE_OWN_ROLE = 'You cannot invite someone with a role above your own.';
export const ALREADY_MEMBER = 'This person is already a member of this team.';
export const ALREADY_INVITED = 'An invitation to this address is already pending: resend it instead.';
export const NOT_PENDING = 'This invitation is no longer pending.';
export const MAX_INVITED_WORKSPACES = 50;
export const MEMBERSHIP_ALREADY_ENDED = 'The membership this invitation offers has already ended.';

export const wrongEmailMessage = (invited: string, current: string) =>
  `This invitation was sent to ${invited}, but you are signed in as ${current}. Sign out, then sign in or register with ${invited} to accept it.`;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export interface InvitationInput {
  email: string;
  role: TeamRole;
  workspace_ids: number[];
  /** The mail's language, when the inviter chose it. */
  locale?: Locale;
  /** When the membership ends (checked against the clock: in the future); null/absent: no end. */
  membership_expires_at?: string | null;
}

/**
 * The invitation mail's language: the one the inviter chose, else the invited address's own
 * (an account that saved one), else the inviter's request language (`requestLocale`).
 */
export async function invitationLocale(db: Kysely<Database>, email: string, chosen: Locale | undefined, requestLanguage: Locale): Promise<Locale> {
  if (chosen) return chosen;
  const invitee = await db.selectFrom('users').select('locale').where('email', '=', email).executeTakeFirst();
  return isLocale(invitee?.locale) ? invitee.locale : requestLanguage;
}

export const isExpired = (invitation: Pick<Invitation, 'expires_at'>, now = new Date()) => Date.parse(invitation.expires_at) <= now.getTime();

export const workspaceIdsOf = (invitation: Pick<Invitation, 'workspace_ids'>): number[] => {
  const parsed = JSON.parse(invitation.workspace_ids) as unknown;
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
};

/** The team, or 404; then 403 unless the actor may invite to it. */
export async function teamToInviteTo(db: Kysely<Database>, access: Access, teamId: number): Promise<Team> {
  const team = await findTeam(db, teamId);
  if (!team) throw notFound();
  if (!managesTeamMembers(access, team.id)) throw new HttpError(403, NOT_AN_INVITER);
  return team;
}

/** Reserves one mailed invitation against the inviter's and the team's budgets (429 naming the one spent). */
async function countMail(limits: InvitationLimits | null, teamId: number, inviter: { id: number; admin: boolean }): Promise<void> {
  if (!limits) return;
  await reserveInvitationMail(limits.throttle, invitationBudgetKeys(limits.budgets, teamId, inviter));
}

/** The labels of the workspaces an invitation offers, for its mail. */
async function workspaceLabels(db: Kysely<Database>, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('workspaces').select('label').where('id', 'in', ids).orderBy('label').execute()).map((workspace) => workspace.label);
}

async function queueInvitationMail(
  trx: Kysely<Database>,
  context: AppContext,
  input: { invitation: Invitation; token: string; team: Team; inviter: User; locale: Locale; workspaces?: string[] },
): Promise<void> {
  const mail = invitationMail({
    inviter: `${input.inviter.firstname} ${input.inviter.lastname}`,
    team: input.team.fullname,
    role: input.invitation.role,
    workspaces: input.workspaces ?? (await workspaceLabels(trx, workspaceIdsOf(input.invitation))),
    link: `${context.config.appUrl}/invitations/${input.invitation.id}/${input.token}`,
    validDays: INVITATION_DAYS,
    locale: input.locale,
  });
  await enqueueMail(trx, { to: input.invitation.email, ...mail });
}

/** What every invitation of one call shares, checked before any address is. */
export interface InvitationTerms {
  team: Team;
  role: TeamRole;
  workspaceIds: number[];
  membershipEnd: string | null;
}

/**
 * The team (404), the inviter's right to invite to it and to give the role (403), the workspaces
 * (each of the team, 422) and the membership's end (in the future, 422).
 */
export async function invitationTerms(
  db: Kysely<Database>,
  access: Access,
  teamId: number,
  input: Pick<InvitationInput, 'role' | 'workspace_ids' | 'membership_expires_at'>,
  now: Date,
): Promise<InvitationTerms> {
  const team = await teamToInviteTo(db, access, teamId);
  const membershipEnd = checkEndDate('membership_expires_at', input.membership_expires_at, now);
  if (!access.admin && TEAM_ROLE_RANK[input.role] > TEAM_ROLE_RANK[access.teamRoles.get(team.id) ?? 'member']) {
    throw new HttpError(403, ABOVE_OWN_ROLE);
  }
  const workspaceIds = [...new Set(input.workspace_ids)];
  if (workspaceIds.length > 0) {
    const found = await db.selectFrom('workspaces').select('id').where('team_id', '=', team.id).where('id', 'in', workspaceIds).execute();
    if (found.length !== workspaceIds.length) throw fieldError('workspace_ids', 'The selected workspace_ids is invalid.');
  }
  return { team, role: input.role, workspaceIds, membershipEnd };
}

/** Of these addresses, those of the team's members. */
export async function memberAddresses(db: Kysely<Database>, teamId: number, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select('users.email')
    .where('team_members.team_id', '=', teamId)
    .where('users.email', 'in', emails)
    .execute();
  return new Set(rows.map((row) => row.email));
}

/** Of these addresses, those with an invitation to the team that is pending and not expired. */
export async function invitedAddresses(db: Kysely<Database>, teamId: number, emails: string[], now: Date): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .selectFrom('invitations')
    .select('email')
    .where('team_id', '=', teamId)
    .where('email', 'in', emails)
    .where('status', '=', 'pending')
    .where('expires_at', '>', timestamp(now))
    .execute();
  return new Set(rows.map((row) => row.email));
}

/**
 * Inserts one invitation with its activity entry and its mail (in the outbox), in the caller's
 * transaction. Expired invitations to the same address make way for it.
 */
export async function insertInvitation(
  trx: Kysely<Database>,
  context: AppContext,
  input: { terms: InvitationTerms; email: string; inviter: User; locale: Locale; workspaces?: string[]; now: Date },
): Promise<Invitation> {
  const { terms, email, inviter, now } = input;
  const { team, role, workspaceIds, membershipEnd } = terms;
  const token = newToken();
  const at = timestamp(now);
  await trx
    .updateTable('invitations')
    .set({ status: 'revoked', revoked_at: at, updated_at: at })
    .where('team_id', '=', team.id)
    .where('email', '=', email)
    .where('status', '=', 'pending')
    .execute();
  const created = await trx
    .insertInto('invitations')
    .values({
      team_id: team.id,
      email,
      role,
      workspace_ids: JSON.stringify(workspaceIds),
      membership_expires_at: membershipEnd,
      invited_by: inviter.id,
      token_hash: sha256(token),
      status: 'pending',
      expires_at: timestamp(new Date(now.getTime() + INVITATION_DAYS * 86_400_000)),
      sent_at: at,
      accepted_by: null,
      accepted_at: null,
      revoked_at: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordActivity(trx, {
    causerId: inviter.id,
    description: 'invitation sent',
    subject: { type: 'team', id: team.id },
    properties: { invitation_id: created.id, email, role, workspace_ids: workspaceIds, membership_expires_at: membershipEnd },
  });
  await queueInvitationMail(trx, context, { invitation: created, token, team, inviter, locale: input.locale, workspaces: input.workspaces });
  return created;
}

/** POST /api/tenants/{id}/invitations with one `email`. */
export async function createInvitation(
  context: AppContext,
  limits: InvitationLimits | null,
  input: { access: Access; inviter: User; teamId: number; invitation: InvitationInput; requestLocale?: Locale },
  now = context.clock.now(),
): Promise<Invitation> {
  const { db } = context;
  const { access, inviter } = input;
  const terms = await invitationTerms(db, access, input.teamId, input.invitation, now);
  const { email } = input.invitation;
  if ((await memberAddresses(db, terms.team.id, [email])).size > 0) throw fieldError('email', ALREADY_MEMBER);
  if ((await invitedAddresses(db, terms.team.id, [email], now)).size > 0) throw new HttpError(409, ALREADY_INVITED);

  await countMail(limits, terms.team.id, { id: inviter.id, admin: access.admin });
  const locale = await invitationLocale(db, email, input.invitation.locale, input.requestLocale ?? 'en');
  const invitation = await db.transaction().execute((trx) => insertInvitation(trx, context, { terms, email, inviter, locale, now }));
  applyAfterCommit(context, { mail: true });
  return invitation;
}

async function invitationOfTeam(db: Kysely<Database>, teamId: number, invitationId: number): Promise<Invitation> {
  const invitation = await db.selectFrom('invitations').selectAll().where('id', '=', invitationId).where('team_id', '=', teamId).executeTakeFirst();
  if (!invitation) throw notFound();
  return invitation;
}

/**
 * POST /api/tenants/{id}/invitations/{invitation}/resend: a new link (the old one stops working),
 * 7 days again. The mail goes out in the resender's name, so they become its inviter: the one
 * whose rights the acceptance checks.
 */
export async function resendInvitation(
  context: AppContext,
  limits: InvitationLimits | null,
  input: { access: Access; inviter: User; teamId: number; invitationId: number; requestLocale?: Locale },
  now = new Date(),
): Promise<Invitation> {
  const { db } = context;
  const team = await teamToInviteTo(db, input.access, input.teamId);
  const invitation = await invitationOfTeam(db, team.id, input.invitationId);
  if (invitation.status !== 'pending') throw new HttpError(409, NOT_PENDING);
  if (!input.access.admin && TEAM_ROLE_RANK[invitation.role] > TEAM_ROLE_RANK[input.access.teamRoles.get(team.id) ?? 'member']) {
    throw new HttpError(403, ABOVE_OWN_ROLE);
  }
  await countMail(limits, team.id, { id: input.inviter.id, admin: input.access.admin });
  const locale = await invitationLocale(db, invitation.email, undefined, input.requestLocale ?? 'en');
  const token = newToken();
  const resent = await db.transaction().execute(async (trx) => {
    const at = timestamp(now);
    const updated = await trx
      .updateTable('invitations')
      .set({
        token_hash: sha256(token),
        invited_by: input.inviter.id,
        expires_at: timestamp(new Date(now.getTime() + INVITATION_DAYS * 86_400_000)),
        sent_at: at,
        updated_at: at,
      })
      .where('id', '=', invitation.id)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new HttpError(409, NOT_PENDING);
    await recordActivity(trx, {
      causerId: input.inviter.id,
      description: 'invitation resent',
      subject: { type: 'team', id: team.id },
      properties: { invitation_id: updated.id, email: updated.email, previous_inviter: invitation.invited_by },
    });
    await queueInvitationMail(trx, context, { invitation: updated, token, team, inviter: input.inviter, locale });
    return updated;
  });
  applyAfterCommit(context, { mail: true });
  return resent;
}

/** DELETE /api/tenants/{id}/invitations/{invitation}: the link stops working. */
export async function revokeInvitation(
  db: Kysely<Database>,
  input: { access: Access; teamId: number; invitationId: number },
  now = new Date(),
): Promise<void> {
  const team = await teamToInviteTo(db, input.access, input.teamId);
  const invitation = await invitationOfTeam(db, team.id, input.invitationId);
  if (invitation.status !== 'pending') throw new HttpError(409, NOT_PENDING);
  await db.transaction().execute(async (trx) => {
    const at = timestamp(now);
    const updated = await trx
      .updateTable('invitations')
      .set({ status: 'revoked', revoked_at: at, updated_at: at })
      .where('id', '=', invitation.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) throw new HttpError(409, NOT_PENDING);
    await recordActivity(trx, {
      causerId: input.access.userId,
      description: 'invitation revoked',
      subject: { type: 'team', id: team.id },
      properties: { invitation_id: invitation.id, email: invitation.email },
    });
  });
}

/** The pending invitations of a team (expired ones included, marked), newest first. */
export function pendingInvitations(db: Kysely<Database>, teamId: number): Promise<Invitation[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The invitation a link names, whatever its state; 403 INVALID_INVITATION for a malformed,
 * unknown or replaced link.
 */
export async function invitationOfLink(db: Kysely<Database>, link: { id: string; token: string }): Promise<Invitation> {
  const invalid = new HttpError(403, INVALID_INVITATION);
  if (!/^\d{1,10}$/.test(link.id) || Number(link.id) > MAX_ID || !/^[A-Za-z0-9_-]{20,200}$/.test(link.token)) throw invalid;
  const invitation = await db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', Number(link.id))
    .where('token_hash', '=', sha256(link.token))
    .executeTakeFirst();
  if (!invitation) throw invalid;
  return invitation;
}

/** Why a link's invitation cannot be accepted now, or null. */
export function invitationRefusal(invitation: Invitation, now = new Date()): HttpError | null {
  if (invitation.status === 'accepted') return new HttpError(403, INVITATION_USED);
  if (invitation.status === 'revoked') return new HttpError(403, INVITATION_REVOKED);
  if (isExpired(invitation, now)) return new HttpError(403, INVITATION_EXPIRED);
  return null;
}

/**
 * POST /api/invitations/{id}/{token}/accept by a signed-in person. The claim (pending → accepted,
 * conditional) and the memberships are one transaction; following the mailed link also proves
 * the address, so an unverified account becomes verified. Refused (403, the invitation left
 * pending) while the team is suspended or when its inviter may no longer give its role
 * (rights.ts), checked in the transaction, after the claim. Answers the invitation as accepted.
 */
export async function acceptInvitation(
  context: AppContext,
  user: User,
  link: { id: string; token: string },
  now = context.clock.now(),
): Promise<{ invitation: Invitation; workspaceIds: number[] }> {
  const { db } = context;
  const invitation = await invitationOfLink(db, link);
  const refusal = invitationRefusal(invitation, now);
  if (refusal) throw refusal;
  // A membership that would end before it begins is refused (the invitation stays pending,
  // for its team to revoke or resend with another date).
  if (invitation.membership_expires_at !== null && invitation.membership_expires_at <= timestamp(now)) throw new HttpError(403, MEMBERSHIP_ALREADY_ENDED);
  if (invitation.email !== user.email) throw new HttpError(403, wrongEmailMessage(invitation.email, user.email));

  const result = await db.transaction().execute(async (trx) => {
    const at = timestamp(now);
    const claimed = await trx
      .updateTable('invitations')
      .set({ status: 'accepted', accepted_by: user.id, accepted_at: at, updated_at: at })
      .where('id', '=', invitation.id)
      .where('token_hash', '=', invitation.token_hash)
      .where('status', '=', 'pending')
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) throw new HttpError(403, INVITATION_USED);
    // Throwing rolls the claim back: the invitation stays pending.
    const grantRefused = await invitationGrantRefusal(trx, claimed);
    if (grantRefused) throw new HttpError(403, grantRefused);
    if (!user.email_verified_at) await markEmailVerified(trx, user);
    await addTeamMember(trx, { teamId: claimed.team_id, userId: user.id, role: claimed.role, causerId: user.id, expiresAt: claimed.membership_expires_at });
    // Workspaces deleted since the invitation are left out.
    const wanted = workspaceIdsOf(claimed);
    const workspaces =
      wanted.length === 0
        ? []
        : await trx.selectFrom('workspaces').select('id').where('team_id', '=', claimed.team_id).where('id', 'in', wanted).execute();
    const joined: number[] = [];
    for (const workspace of workspaces) {
      await addWorkspaceMember(trx, { workspaceId: workspace.id, userId: user.id, role: 'member', causerId: user.id });
      joined.push(workspace.id);
    }
    if (joined.length > 0) {
      // As an approved JoinWorkspace (requests/routing.ts, decisionEffects): the reconciler grants the access.
      await trx
        .updateTable('workspace_members')
        .set({ cluster_state: 'pending', cluster_error: null })
        .where('user_id', '=', user.id)
        .where('workspace_id', 'in', joined)
        .execute();
    }
    await recordActivity(trx, {
      causerId: user.id,
      description: 'invitation accepted',
      subject: { type: 'team', id: claimed.team_id },
      properties: { invitation_id: claimed.id, role: claimed.role, workspace_ids: joined, invited_by: claimed.invited_by },
    });
    return { invitation: claimed, workspaceIds: joined };
  });

  const accepted = result.invitation;
  const payload = { id: accepted.id, team_id: accepted.team_id, email: accepted.email, user_id: user.id };
  applyAfterCommit(context, {
    clusterSync: result.workspaceIds.length > 0,
    rightsChanged: [user.id],
    // Whoever sent it sees it accepted in their team's invitation list at once.
    notices: accepted.invited_by === null ? [] : [{ userId: accepted.invited_by, event: RealtimeEvent.InvitationAccepted, payload }],
  });
  return result;
}

/**
 * Whether a registration's body carries a link to an invitation it may act on: pending, not
 * expired, acceptable now (as GET /api/invitations/{id}/{token} would show it) and sent to the
 * address being registered. Such a registration is not held by the per-address registration
 * limit: a whole class behind one school address registers from the invitations it was sent,
 * and the invitation is the permission. Tying it to the invited address means one invitation
 * lets one account through, so the link cannot be replayed to register others.
 */
export async function registrationIsInvited(db: Kysely<Database>, body: unknown, now: Date): Promise<boolean> {
  if (typeof body !== 'object' || body === null) return false;
  const { invitation: link, email } = body as { invitation?: unknown; email?: unknown };
  if (typeof email !== 'string' || typeof link !== 'object' || link === null) return false;
  const { id, token } = link as { id?: unknown; token?: unknown };
  if (typeof id !== 'string' || typeof token !== 'string') return false;
  const invitation = await invitationOfLink(db, { id, token }).catch(() => null);
  if (!invitation || invitationRefusal(invitation, now)) return false;
  if (invitation.email !== email.trim().toLowerCase()) return false;
  return (await invitationGrantRefusal(db, invitation)) === null;
}
