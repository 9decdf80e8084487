import { recordActivity } from '../activity/log.js';
import { HOUR_MS } from '../clock.js';
import { APP_NAME } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { AfterCommit } from '../effects/afterCommit.js';
import { type Locale, mailLocale } from '../i18n/messages.js';
import type { LifecycleInput, LifecycleStep } from '../lifecycle/runner.js';
import { enqueueMails } from '../mail/outbox.js';
import { greetingFor, htmlMail, type MailContent } from '../mail/templates.js';
import { workspaceQuotaOf } from './quota.js';

// More quota granted until a date (a QuotaIncrease approved with `until`, requests/quotaRequests.ts):
// the workspace's members are mailed GRANT_WARNING_HOURS before, once (lifecycle_notices, keyed
// by the end date, so a new grant warns afresh), and at the date the workspace returns to the
// quota it had before (`quota_previous`), which the reconciler takes to the namespace. Both find
// their work from the database alone, so a pass after downtime catches up and a second replica
// or a restart does nothing twice.

export const GRANT_WARNING = 'quota_grant_ending';
export const GRANT_WARNING_HOURS = 72;

/** "2030-06-30 22:00 UTC": the same in both languages, unambiguous across time zones. */
const mailDate = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function quotaGrantEndingMail(options: { firstname: string; workspace: string; until: string; link: string; locale?: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const at = mailDate(options.until);
  const ending = fr
    ? `Le quota supplémentaire accordé à l’espace de travail ${options.workspace} prend fin le ${at} : l’espace revient alors à son quota précédent.`
    : `The extra quota granted to the workspace ${options.workspace} ends on ${at}: the workspace then returns to its former quota.`;
  const outro = fr
    ? 'Si vous en avez encore besoin, demandez plus de quota depuis la page de l’espace de travail.'
    : 'If you still need it, ask for more quota from the workspace page.';
  return {
    subject: fr ? `Le quota supplémentaire de ${options.workspace} prend bientôt fin sur ${APP_NAME}` : `Extra quota for ${options.workspace} ending soon on ${APP_NAME}`,
    text: [greeting, '', ending, '', outro, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [ending], action: { label: fr ? 'Ouvrir l’espace de travail' : 'Open the workspace', url: options.link }, after: [outro], locale: options.locale }),
  };
}

/** Mails the members of every workspace whose grant ends within 72 hours, once per grant. */
export async function warnOfEndingGrants({ db, config, now }: LifecycleInput): Promise<AfterCommit> {
  const horizon = timestamp(new Date(now.getTime() + GRANT_WARNING_HOURS * HOUR_MS));
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('workspaces as w')
      .select(['w.id', 'w.label', 'w.quota_until'])
      .where('w.quota_until', 'is not', null)
      .where('w.quota_until', '<=', horizon)
      .where('w.quota_until', '>', timestamp(now))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('lifecycle_notices as n')
              .select('n.id')
              .where('n.kind', '=', GRANT_WARNING)
              .where('n.subject_type', '=', 'workspace')
              .whereRef('n.subject_id', '=', 'w.id')
              .whereRef('n.due_at', '=', 'w.quota_until'),
          ),
        ),
      )
      .$narrowType<{ quota_until: string }>()
      .execute();
    let count = 0;
    for (const workspace of due) {
      // Claimed first: a warning another replica recorded meanwhile is left to its mail.
      const claimed = await trx
        .insertInto('lifecycle_notices')
        .values({ kind: GRANT_WARNING, subject_type: 'workspace', subject_id: workspace.id, due_at: workspace.quota_until, sent_at: timestamp(now) })
        .onConflict((conflict) => conflict.columns(['kind', 'subject_type', 'subject_id', 'due_at']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!claimed) continue;
      const members = await trx
        .selectFrom('workspace_members as wm')
        .innerJoin('users as u', 'u.id', 'wm.user_id')
        .select(['u.firstname', 'u.email', 'u.locale'])
        .where('wm.workspace_id', '=', workspace.id)
        .where('u.enabled', '=', 1)
        .execute();
      const until = new Date(workspace.quota_until).toISOString();
      const link = `${config.appUrl}/workspaces/${workspace.id}`;
      const mails = members.map((person) => ({
        to: person.email,
        ...quotaGrantEndingMail({ firstname: person.firstname, workspace: workspace.label, until, link, locale: mailLocale(person) }),
      }));
      await enqueueMails(trx, mails, now);
      count += mails.length;
    }
    return { mail: count > 0 };
  });
}

/** Returns every workspace whose grant has ended to its former quota; the reconciler follows. */
export async function endGrants({ db, now }: LifecycleInput): Promise<AfterCommit> {
  const due = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('quota_until', 'is not', null)
    .where('quota_until', '<=', timestamp(now))
    .orderBy('quota_until')
    .limit(1000)
    .execute();
  for (const workspace of due) {
    await db.transaction().execute(async (trx) => {
      const previous = JSON.parse(workspace.quota_previous ?? '{}') as Partial<ReturnType<typeof workspaceQuotaOf>>;
      // Only if still this grant: a decision meanwhile (a new grant) is left as it is.
      const reverted = await trx
        .updateTable('workspaces')
        .set({
          quota_cpu: previous.cpu ?? null,
          quota_memory: previous.memory ?? null,
          quota_pods: previous.pods ?? null,
          quota_storage: previous.storage ?? null,
          quota_until: null,
          quota_previous: null,
          cluster_state: 'pending',
          updated_at: timestamp(now),
        })
        .where('id', '=', workspace.id)
        .where('quota_until', '=', workspace.quota_until)
        .returningAll()
        .executeTakeFirst();
      if (!reverted) return;
      await recordActivity(trx, {
        causerId: null,
        description: 'workspace quota grant ended',
        subject: { type: 'workspace', id: workspace.id },
        properties: { namespace: workspace.namespace, before: workspaceQuotaOf(workspace), after: workspaceQuotaOf(reverted), until: workspace.quota_until },
      });
    });
  }
  return { clusterSync: due.length > 0 };
}

export const quotaGrantSteps: LifecycleStep[] = [
  { name: 'quota grant warnings', run: warnOfEndingGrants },
  { name: 'quota grant ends', run: endGrants },
];
