import type { Kysely } from 'kysely';
import { APP_NAME, type Config } from '../config/config.js';
import type { AfterCommit } from '../effects/afterCommit.js';
import type { Database } from '../db/schema.js';
import { type Locale, mailLocale } from '../i18n/messages.js';
import { enqueueMails } from '../mail/outbox.js';
import { greetingFor, htmlMail, type MailContent } from '../mail/templates.js';
import { RealtimeEvent } from '../broadcasting/broadcaster.js';

// Telling the members of a workspace a platform admin deleted (DELETE /api/admin/workspaces/{id}):
// a realtime notice on each member's user channel (an open console drops the workspace at
// once) and a mail (those not looking learn why their kubeconfig stopped working).

export interface DeletedWorkspaceNotice {
  id: number;
  name: string;
  label: string;
  namespace: string;
  team: { id: number; name: string; fullname: string };
}

export function workspaceDeletedMail(options: {
  firstname: string;
  workspace: DeletedWorkspaceNotice;
  deciderName: string;
  link: string;
  locale?: Locale;
}): MailContent {
  const { workspace } = options;
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `L’espace de travail « ${workspace.label} » de l’équipe « ${workspace.team.fullname} » a été supprimé par ${options.deciderName}, administrateur de la plateforme.`
    : `The workspace “${workspace.label}” of the team “${workspace.team.fullname}” was deleted by ${options.deciderName}, a platform admin.`;
  const effects = fr
    ? `Son espace de noms ${workspace.namespace} et tout ce qu’il contient (pods compris) sont en cours de suppression du cluster, et ses kubeconfigs ne fonctionnent plus.`
    : `Its namespace ${workspace.namespace} and everything in it (pods included) are being deleted from the cluster, and kubeconfigs for it no longer work.`;
  return {
    subject: fr
      ? `Espace de travail supprimé : ${workspace.label} (${workspace.namespace})`
      : `Workspace deleted: ${workspace.label} (${workspace.namespace})`,
    text: [greeting, '', intro, '', effects, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, effects],
      action: { label: fr ? 'Ouvrir la console' : 'Open the console', url: options.link },
      after: [],
      locale: options.locale,
    }),
  };
}

/**
 * Inside the deletion's transaction (`trx`): a mail to each member, as outbox rows, so that a
 * deletion that commits mails its members and one that rolls back mails nobody. Disabled
 * accounts get none.
 */
export async function queueWorkspaceDeletedMails(
  trx: Kysely<Database>,
  config: Pick<Config, 'appUrl'>,
  input: { workspace: DeletedWorkspaceNotice; memberIds: number[]; deciderName: string },
): Promise<void> {
  if (input.memberIds.length === 0) return;
  const members = await trx.selectFrom('users').select(['firstname', 'email', 'locale']).where('id', 'in', input.memberIds).where('enabled', '=', 1).execute();
  await enqueueMails(
    trx,
    members.map((member) => ({
      to: member.email,
      ...workspaceDeletedMail({
        firstname: member.firstname,
        workspace: input.workspace,
        deciderName: input.deciderName,
        link: config.appUrl,
        locale: mailLocale(member),
      }),
    })),
  );
}

/** After the deletion committed: the event to each member, and the mails written with it sent. */
export function workspaceDeletedNotices(input: { workspace: DeletedWorkspaceNotice; memberIds: number[] }): AfterCommit {
  return {
    notices: input.memberIds.map((userId) => ({ userId, event: RealtimeEvent.WorkspaceDeleted, payload: input.workspace })),
    mail: input.memberIds.length > 0,
  };
}
