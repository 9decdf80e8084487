import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { Config, LifecycleSettings } from '../config/config.js';
import type { Database } from '../db/schema.js';
import { type AfterCommit, mergeAfterCommit } from '../effects/afterCommit.js';
import { mailLocale } from '../i18n/messages.js';
import { enqueueMails } from '../mail/outbox.js';
import { deleteWorkspaceInTransaction } from '../workspaces/deletion.js';
import { workspaceDeletedNotices } from '../workspaces/deletionNotice.js';
import { retentionDeletedMail } from './digestMail.js';
import { dueDeletions } from './due.js';
import type { LifecycleStep } from './runner.js';

// The end of a suspended workspace's retention period (`retention_days` after its suspension;
// null: never): it is deleted through the same path as a platform admin's deletion
// (workspaces/deletion.ts: its rows now, its namespace and service accounts by the reconciler),
// its members are told (realtime and mail), and the log says why.

export async function deleteRetainedWorkspaces(db: Kysely<Database>, config: Pick<Config, 'appUrl'>, settings: LifecycleSettings, now: Date): Promise<AfterCommit> {
  const due = await dueDeletions(db, settings, now);
  const effects: AfterCommit[] = [];
  for (const candidate of due) {
    // One transaction each: a failure leaves the others deleted and this one for the next pass.
    const done = await db.transaction().execute(async (trx) => {
      // Read again: renewed (no longer suspended) or deleted meanwhile leaves it be.
      const workspace = await trx.selectFrom('workspaces').selectAll().where('id', '=', candidate.id).where('suspended_at', '=', candidate.suspended_at).executeTakeFirst();
      if (!workspace) return null;
      const team = await trx.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', '=', workspace.team_id).executeTakeFirstOrThrow();
      const deleted = await deleteWorkspaceInTransaction(trx, workspace, null);
      await recordActivity(trx, {
        causerId: null,
        description: 'suspended workspace deleted',
        subject: { type: 'workspace', id: workspace.id },
        severity: 'warning',
        properties: { cause: 'retention period ended', suspended_at: workspace.suspended_at, retention_days: settings.retention_days, namespace: workspace.namespace },
      });
      if (deleted.member_ids.length > 0) {
        const members = await trx.selectFrom('users').select(['firstname', 'email', 'locale']).where('id', 'in', deleted.member_ids).where('enabled', '=', 1).execute();
        await enqueueMails(
          trx,
          members.map((member) => ({
            to: member.email,
            ...retentionDeletedMail({ firstname: member.firstname, label: workspace.label, namespace: workspace.namespace, link: config.appUrl, locale: mailLocale(member) }),
          })),
        );
      }
      const notice = { id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace, team };
      return mergeAfterCommit(deleted.effects, workspaceDeletedNotices({ workspace: notice, memberIds: deleted.member_ids }));
    });
    if (done) effects.push(done);
  }
  return mergeAfterCommit(...effects);
}

export const retentionStep: LifecycleStep = {
  name: 'retention',
  run: ({ db, config, settings, now }) => deleteRetainedWorkspaces(db, config, settings, now),
};
