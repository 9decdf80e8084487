import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { AfterCommit } from '../effects/afterCommit.js';
import { mailLocale } from '../i18n/messages.js';
import type { LifecycleInput, LifecycleStep } from '../lifecycle/runner.js';
import { enqueueMails } from '../mail/outbox.js';
import { ALLOCATION_WARNING_SHARE, coreHoursThisMonth, monthStart } from './allocations.js';
import { allocationMail } from './mail.js';

// The lifecycle pass's part for allocations (README.md): warn at 90 %, refuse new pods at 100 %,
// restore them in a new month or with a larger allocation. Each pass reads every team with an
// allocation (or one still marked used up) and this month's usage in one grouped query.

export const ALLOCATION_WARNING = 'allocation_warning';
export const ALLOCATION_USED_UP = 'allocation_used_up';

interface TeamRow {
  id: number;
  name: string;
  allocation_core_hours: number | null;
  allocation_used_up_at: string | null;
}

/** Records the notice of `kind` for the team this month; false when a pass already did. */
async function claimNotice(trx: Kysely<Database>, kind: string, teamId: number, period: string, now: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto('lifecycle_notices')
    .values({ kind, subject_type: 'team', subject_id: teamId, due_at: period, sent_at: timestamp(now) })
    .onConflict((conflict) => conflict.columns(['kind', 'subject_type', 'subject_id', 'due_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The team's owners and managers, with what their mail needs. */
async function managersOf(trx: Kysely<Database>, teamId: number) {
  return trx
    .selectFrom('team_members as tm')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .select(['u.id', 'u.firstname', 'u.email', 'u.locale'])
    .where('tm.team_id', '=', teamId)
    .where('tm.role', 'in', ['owner', 'manager'])
    .where('tm.enabled', '=', 1)
    .where('u.enabled', '=', 1)
    .execute();
}

/** Marks the team's workspaces for the reconciler, which applies the allocation to their quotas. */
async function resyncWorkspaces(trx: Kysely<Database>, teamId: number): Promise<void> {
  await trx.updateTable('workspaces').set({ cluster_state: 'pending' }).where('team_id', '=', teamId).where('cluster_state', '!=', 'error').execute();
}

export async function applyAllocations({ db, config, now }: LifecycleInput): Promise<AfterCommit> {
  const teams: TeamRow[] = await db
    .selectFrom('teams')
    .select(['id', 'name', 'allocation_core_hours', 'allocation_used_up_at'])
    .where((eb) => eb.or([eb('allocation_core_hours', 'is not', null), eb('allocation_used_up_at', 'is not', null)]))
    .execute();
  if (teams.length === 0) return {};
  const used = await coreHoursThisMonth(db, teams.map((team) => team.id), now);
  const period = monthStart(now);
  let mails = 0;
  let clusterSync = false;

  for (const team of teams) {
    const allocation = team.allocation_core_hours;
    const spent = used.get(team.id) ?? 0;
    const usedUp = allocation !== null && spent >= allocation;
    const warn = allocation !== null && spent >= allocation * ALLOCATION_WARNING_SHARE;
    // Each team in its own transaction: the mark, the notice and its mails commit together.
    const outcome = await db.transaction().execute(async (trx) => {
      let changed = false;
      if (usedUp && team.allocation_used_up_at === null) {
        const marked = await trx
          .updateTable('teams')
          .set({ allocation_used_up_at: timestamp(now) })
          .where('id', '=', team.id)
          .where('allocation_used_up_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (marked) {
          changed = true;
          await resyncWorkspaces(trx, team.id);
          await recordActivity(trx, { causerId: null, description: 'team allocation used up', subject: { type: 'team', id: team.id }, severity: 'warning', properties: { used: spent, allocation, period } });
        }
      } else if (!usedUp && team.allocation_used_up_at !== null) {
        const cleared = await trx
          .updateTable('teams')
          .set({ allocation_used_up_at: null })
          .where('id', '=', team.id)
          .where('allocation_used_up_at', '=', team.allocation_used_up_at)
          .returning('id')
          .executeTakeFirst();
        if (cleared) {
          changed = true;
          await resyncWorkspaces(trx, team.id);
          await recordActivity(trx, { causerId: null, description: 'team allocation restored', subject: { type: 'team', id: team.id }, properties: { used: spent, allocation, period } });
        }
      }
      // The mail of the highest mark reached; a pass that finds both due sends only "used up".
      const kind = usedUp ? ALLOCATION_USED_UP : warn ? ALLOCATION_WARNING : null;
      let sent = 0;
      if (kind && (await claimNotice(trx, kind, team.id, period, now))) {
        if (kind === ALLOCATION_USED_UP) await claimNotice(trx, ALLOCATION_WARNING, team.id, period, now);
        const link = `${config.appUrl}/teams/${encodeURIComponent(team.name)}`;
        const messages = (await managersOf(trx, team.id)).map((person) => ({
          to: person.email,
          ...allocationMail({ firstname: person.firstname, teamName: team.name, used: spent, allocation: allocation!, periodStart: period, usedUp, link, locale: mailLocale(person) }),
        }));
        await enqueueMails(trx, messages, now);
        sent = messages.length;
      }
      return { changed, sent };
    });
    mails += outcome.sent;
    clusterSync ||= outcome.changed;
  }
  return { mail: mails > 0, clusterSync };
}

export const allocationStep: LifecycleStep = { name: 'allocations', run: applyAllocations };
