import type { Access } from '../access/access.js';
import { recordActivity } from '../activity/log.js';
import { DAY_MS } from '../clock.js';
import { timestamp } from '../db/database.js';
import type { Request } from '../db/schema.js';
import { type AfterCommit, mergeAfterCommit } from '../effects/afterCommit.js';
import { mailLocale } from '../i18n/messages.js';
import type { LifecycleInput, LifecycleStep } from '../lifecycle/runner.js';
import { enqueueMails } from '../mail/outbox.js';
import { type EndingMembership, membershipsEndingMail } from './endingMail.js';
import { removalEffects, removeTeamMember } from './members.js';

// The lifecycle pass's part for memberships that end (docs/lifecycle.md): the warning
// `membership_warning_days` before the end, to the member and the team's owners and managers
// (one mail per person listing everything), then the removal at the end, exactly as a manager's
// removal (workspaces, cluster access, realtime rights, closed requests), recorded as "team
// membership ended". Both find their work from the database alone (end dates passed or near,
// indexed; warnings not yet in lifecycle_notices), so a second replica, a restart or a pass
// after downtime does each thing once.

export const MEMBERSHIP_WARNING = 'membership_ending';
/** The most memberships one pass removes; the next pass goes on (a class of thousands ends at once). */
const ENDS_PER_PASS = 1000;

/** The pass acts for nobody: the rules of the removal apply as for a platform admin. */
const LIFECYCLE_ACCESS: Access = { userId: 0, admin: true, teamRoles: new Map(), workspaceRoles: new Map() };

interface Due {
  id: number;
  team_id: number;
  user_id: number;
  expires_at: string;
  team_name: string;
  firstname: string;
  lastname: string;
  email: string;
}

/** Warns of every membership that ends within the warning time and was not warned of at this end date. */
export async function warnOfEndingMemberships({ db, config, settings, now }: LifecycleInput): Promise<AfterCommit> {
  const horizon = timestamp(new Date(now.getTime() + settings.membership_warning_days * DAY_MS));
  return db.transaction().execute(async (trx) => {
    const due: Due[] = await trx
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .innerJoin('users as u', 'u.id', 'tm.user_id')
      .select(['tm.id', 'tm.team_id', 'tm.user_id', 'tm.expires_at as expires_at', 't.name as team_name', 'u.firstname', 'u.lastname', 'u.email'])
      .where('tm.expires_at', 'is not', null)
      .where('tm.expires_at', '<=', horizon)
      // As the workspaces' and teams' warnings: only rights in use are warned of. A suspended
      // membership, or one in a suspended team, is warned of at the first pass after it is
      // enabled again (no notice was recorded for it).
      .where('tm.enabled', '=', 1)
      .where('t.enabled', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('lifecycle_notices as n')
              .select('n.id')
              .where('n.kind', '=', MEMBERSHIP_WARNING)
              .where('n.subject_type', '=', 'team_member')
              .whereRef('n.subject_id', '=', 'tm.id')
              .whereRef('n.due_at', '=', 'tm.expires_at'),
          ),
        ),
      )
      .orderBy('tm.expires_at')
      .$narrowType<{ expires_at: string }>()
      .execute();
    if (due.length === 0) return {};

    // Claimed one by one: a warning another replica recorded meanwhile is left to its mail.
    const claimed: Due[] = [];
    for (const row of due) {
      const inserted = await trx
        .insertInto('lifecycle_notices')
        .values({ kind: MEMBERSHIP_WARNING, subject_type: 'team_member', subject_id: row.id, due_at: row.expires_at, sent_at: timestamp(now) })
        .onConflict((conflict) => conflict.columns(['kind', 'subject_type', 'subject_id', 'due_at']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) claimed.push(row);
    }
    if (claimed.length === 0) return {};

    const teamIds = [...new Set(claimed.map((row) => row.team_id))];
    const managers = await trx
      .selectFrom('team_members as tm')
      .select(['tm.team_id', 'tm.user_id'])
      .where('tm.team_id', 'in', teamIds)
      .where('tm.role', 'in', ['owner', 'manager'])
      .where('tm.enabled', '=', 1)
      .execute();
    const entries = new Map<number, EndingMembership[]>();
    const add = (userId: number, entry: EndingMembership) => entries.set(userId, [...(entries.get(userId) ?? []), entry]);
    for (const row of claimed) {
      add(row.user_id, { teamName: row.team_name, member: null, expiresAt: row.expires_at });
      const member = { name: `${row.firstname} ${row.lastname}`, email: row.email };
      for (const manager of managers) {
        if (manager.team_id === row.team_id && manager.user_id !== row.user_id) add(manager.user_id, { teamName: row.team_name, member, expiresAt: row.expires_at });
      }
    }
    const recipients = await trx
      .selectFrom('users')
      .select(['id', 'firstname', 'email', 'locale'])
      .where('id', 'in', [...entries.keys()])
      .where('enabled', '=', 1)
      .execute();
    const mails = recipients.map((person) => ({
      to: person.email,
      ...membershipsEndingMail({ firstname: person.firstname, entries: entries.get(person.id)!, link: `${config.appUrl}/`, locale: mailLocale(person) }),
    }));
    await enqueueMails(trx, mails, now);
    // Each warning in the activity log, as the workspaces' and teams' (lifecycle/warnings.ts), in
    // the transaction of its notice and mails: who was told that a membership ends, and when.
    // Filed under the team, where "team membership ended" follows it.
    const mailed = new Set(recipients.map((person) => person.id));
    for (const row of claimed) {
      const told = [row.user_id, ...managers.filter((manager) => manager.team_id === row.team_id && manager.user_id !== row.user_id).map((manager) => manager.user_id)];
      await recordActivity(trx, {
        causerId: null,
        description: 'lifecycle notice sent',
        subject: { type: 'team', id: row.team_id },
        properties: {
          kind: MEMBERSHIP_WARNING,
          user_id: row.user_id,
          date: row.expires_at,
          cause: 'membership end date',
          recipients: told.filter((id) => mailed.has(id)),
        },
      });
    }
    return { mail: mails.length > 0 };
  });
}

/** Removes every membership whose end date has passed, as a manager's removal would. */
export async function endMemberships({ db, now }: LifecycleInput): Promise<AfterCommit> {
  const at = timestamp(now);
  const due = await db
    .selectFrom('team_members')
    .select(['team_id', 'user_id'])
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', at)
    .orderBy('expires_at')
    .limit(ENDS_PER_PASS)
    .execute();
  const removed: number[] = [];
  const closed: Request[] = [];
  for (const row of due) {
    // Each in its own transaction, as the bulk removal: one refusal (a team's last owner, whose
    // membership stays until someone else is made owner) does not hold back the others.
    const outcome = await removeTeamMember(db, { teamId: row.team_id, userId: row.user_id, access: LIFECYCLE_ACCESS, ended: { now: at } });
    if (outcome.status !== 'done') continue;
    removed.push(row.user_id);
    closed.push(...outcome.closed_requests);
  }
  return mergeAfterCommit(removalEffects({ db }, [...new Set(removed)], closed));
}

/** The lifecycle steps of memberships that end, warning first (lifecycle/steps.ts). */
export const membershipSteps: LifecycleStep[] = [
  { name: 'membership warnings', run: warnOfEndingMemberships },
  { name: 'membership ends', run: endMemberships },
];
