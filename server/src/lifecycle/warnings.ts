import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { Config } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { mailLocale } from '../i18n/messages.js';
import { enqueueMails } from '../mail/outbox.js';
import { type DigestItem, lifecycleDigestMail } from './digestMail.js';
import { type DueNotice, dueNotices } from './due.js';
import type { LifecycleStep } from './runner.js';

// The warnings before an end (docs/lifecycle.md, "Warnings"). Each one is recorded in
// `lifecycle_notices` (unique per kind, subject and date warned of) in the same transaction as
// its mails: a second runner, a restart or a repeated pass finds it recorded, or, racing, hits
// the unique constraint and sends nothing. Everyone concerned gets one mail per pass listing all
// their items, in their language.

interface Recipient {
  id: number;
  email: string;
  firstname: string;
  locale: string | null;
}

const PEOPLE = ['u.id', 'u.email', 'u.firstname', 'u.locale'] as const;

/** Who is told about each notice: a workspace's managers and its team's owners and managers; a team's owners. */
async function recipientsOf(db: Kysely<Database>, notices: DueNotice[]): Promise<Map<string, Recipient[]>> {
  const byKey = new Map<string, Recipient[]>();
  const add = (key: string, person: Recipient) => {
    const list = byKey.get(key) ?? [];
    if (!list.some((known) => known.id === person.id)) list.push(person);
    byKey.set(key, list);
  };
  const workspaceIds = [...new Set(notices.filter((notice) => notice.subject_type === 'workspace').map((notice) => notice.subject_id))];
  const teamIds = [...new Set(notices.filter((notice) => notice.subject_type === 'team').map((notice) => notice.subject_id))];
  for (let start = 0; start < workspaceIds.length; start += 500) {
    const ids = workspaceIds.slice(start, start + 500);
    const managers = await db
      .selectFrom('workspace_members as wm')
      .innerJoin('users as u', 'u.id', 'wm.user_id')
      .select([...PEOPLE, 'wm.workspace_id'])
      .where('wm.workspace_id', 'in', ids)
      .where('wm.role', '=', 'manager')
      .where('u.enabled', '=', 1)
      .execute();
    const teamManagers = await db
      .selectFrom('workspaces as w')
      .innerJoin('team_members as tm', 'tm.team_id', 'w.team_id')
      .innerJoin('users as u', 'u.id', 'tm.user_id')
      .select([...PEOPLE, 'w.id as workspace_id'])
      .where('w.id', 'in', ids)
      .where('tm.role', 'in', ['owner', 'manager'])
      .where('tm.enabled', '=', 1)
      .where('u.enabled', '=', 1)
      .execute();
    for (const { workspace_id, ...person } of [...managers, ...teamManagers]) add(`workspace:${workspace_id}`, person);
  }
  for (let start = 0; start < teamIds.length; start += 500) {
    const owners = await db
      .selectFrom('team_members as tm')
      .innerJoin('users as u', 'u.id', 'tm.user_id')
      .select([...PEOPLE, 'tm.team_id'])
      .where('tm.team_id', 'in', teamIds.slice(start, start + 500))
      .where('tm.role', '=', 'owner')
      .where('tm.enabled', '=', 1)
      .where('u.enabled', '=', 1)
      .execute();
    for (const { team_id, ...person } of owners) add(`team:${team_id}`, person);
  }
  return byKey;
}

/**
 * Records and mails the notices due at `now`. Answers how many notices were sent (recorded by
 * this call) and how many mails were written.
 */
export async function sendDueNotices(db: Kysely<Database>, config: Pick<Config, 'appUrl'>, settings: Parameters<typeof dueNotices>[1], now: Date) {
  const due = await dueNotices(db, settings, now);
  if (due.length === 0) return { notices: 0, mails: 0 };
  return db.transaction().execute(async (trx) => {
    const sent: DueNotice[] = [];
    for (const notice of due) {
      const inserted = await trx
        .insertInto('lifecycle_notices')
        .values({ kind: notice.kind, subject_type: notice.subject_type, subject_id: notice.subject_id, due_at: notice.due_at, sent_at: timestamp(now) })
        .onConflict((conflict) => conflict.columns(['kind', 'subject_type', 'subject_id', 'due_at']).doNothing())
        .returning('id')
        .executeTakeFirst();
      // Nothing inserted: another pass recorded (and mailed) it.
      if (inserted) sent.push(notice);
    }
    const recipients = await recipientsOf(trx, sent);
    const digests = new Map<number, { person: Recipient; items: DigestItem[] }>();
    for (const notice of sent) {
      const people = recipients.get(`${notice.subject_type}:${notice.subject_id}`) ?? [];
      for (const person of people) {
        const digest = digests.get(person.id) ?? { person, items: [] };
        digest.items.push({ kind: notice.kind, label: notice.label, team: notice.team, date: notice.due_at });
        digests.set(person.id, digest);
      }
      await recordActivity(trx, {
        causerId: null,
        description: 'lifecycle notice sent',
        subject: { type: notice.subject_type, id: notice.subject_id },
        properties: { kind: notice.kind, date: notice.due_at, cause: causeOf(notice), recipients: people.map((person) => person.id) },
      });
    }
    const mails = [...digests.values()].map(({ person, items }) => ({
      to: person.email,
      ...lifecycleDigestMail({ firstname: person.firstname, items, link: config.appUrl, locale: mailLocale(person) }),
    }));
    await enqueueMails(trx, mails);
    return { notices: sent.length, mails: mails.length };
  });
}

const causeOf = (notice: DueNotice) =>
  notice.kind === 'workspace_deletion' ? 'retention period ends' : notice.subject_type === 'team' ? 'team review date' : 'workspace end date';

export const warningStep: LifecycleStep = {
  name: 'warnings',
  async run({ db, config, settings, now }) {
    const { mails } = await sendDueNotices(db, config, settings, now);
    return { mail: mails > 0 };
  },
};
