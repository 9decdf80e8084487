import { APP_NAME } from '../config/config.js';
import type { Locale } from '../i18n/messages.js';
import { greetingFor, htmlMail, type MailContent } from '../mail/templates.js';

// The one mail a person gets from a lifecycle pass: every end they must know of (workspaces
// ending, their team's review date, workspaces about to be deleted), listed, so that someone
// with twenty expiring workspaces reads one mail, not twenty. In the recipient's language.

export type NoticeKind = 'workspace_warning' | 'workspace_last_warning' | 'team_warning' | 'team_last_warning' | 'workspace_deletion';

export interface DigestItem {
  kind: NoticeKind;
  /** The workspace's label or the team's full name. */
  label: string;
  /** The team a workspace belongs to (its full name); null for a team. */
  team: string | null;
  /** The date the item is about: the end, the review date or the deletion. ISO 8601. */
  date: string;
}

/** "2025-03-04 12:00 UTC": unambiguous in both languages. */
export const mailDate = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function digestLine(item: DigestItem, locale: Locale): string {
  const date = mailDate(item.date);
  const fr = locale === 'fr';
  switch (item.kind) {
    case 'workspace_warning':
    case 'workspace_last_warning':
      return fr
        ? `L’espace de travail « ${item.label} » (équipe « ${item.team} ») sera suspendu le ${date}.`
        : `The workspace “${item.label}” (team “${item.team}”) will be suspended on ${date}.`;
    case 'team_warning':
    case 'team_last_warning':
      return fr
        ? `L’équipe « ${item.label} » arrive à sa date de revue le ${date} : sans renouvellement, ses espaces de travail seront suspendus.`
        : `The team “${item.label}” reaches its review date on ${date}: unless it is renewed, its workspaces will be suspended.`;
    case 'workspace_deletion':
      return fr
        ? `L’espace de travail suspendu « ${item.label} » (équipe « ${item.team} ») sera supprimé le ${date}, avec tout ce qu’il contient.`
        : `The suspended workspace “${item.label}” (team “${item.team}”) will be deleted on ${date}, with everything in it.`;
  }
}

export function lifecycleDigestMail(options: { firstname: string; items: DigestItem[]; link: string; locale: Locale }): MailContent {
  const { items, locale } = options;
  const fr = locale === 'fr';
  const greeting = greetingFor(options.firstname, locale);
  const lines = [...items].sort((a, b) => a.date.localeCompare(b.date)).map((item) => digestLine(item, locale));
  const deletion = items.some((item) => item.kind === 'workspace_deletion');
  const subject = fr
    ? deletion
      ? 'Des espaces de travail vont être supprimés'
      : items.length === 1
        ? `Fin prochaine : ${items[0]!.label}`
        : `${items.length} fins prochaines sur le testbed`
    : deletion
      ? 'Workspaces are about to be deleted'
      : items.length === 1
        ? `Ending soon: ${items[0]!.label}`
        : `${items.length} ends coming up on the testbed`;
  const renew = fr
    ? 'Pour continuer, demandez un renouvellement depuis la page de l’espace de travail ou de l’équipe dans la console.'
    : 'To keep going, ask for a renewal from the workspace’s or the team’s page in the console.';
  return {
    subject,
    text: [greeting, '', ...lines.map((text) => `- ${text}`), '', renew, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [...lines, renew],
      action: { label: fr ? 'Ouvrir la console' : 'Open the console', url: options.link },
      after: [],
      locale,
    }),
  };
}

/** The mail of a workspace deleted at the end of its retention period, to its members. */
export function retentionDeletedMail(options: { firstname: string; label: string; namespace: string; link: string; locale: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `L’espace de travail « ${options.label} » était suspendu depuis la fin de sa durée de vie et n’a pas été renouvelé : il a été supprimé, avec son espace de noms ${options.namespace} et tout ce qu’il contenait.`
    : `The workspace “${options.label}” had been suspended since it ended and was not renewed: it was deleted, with its namespace ${options.namespace} and everything in it.`;
  return {
    subject: fr ? `Espace de travail supprimé : ${options.label}` : `Workspace deleted: ${options.label}`,
    text: [greeting, '', intro, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [intro], action: { label: fr ? 'Ouvrir la console' : 'Open the console', url: options.link }, after: [], locale: options.locale }),
  };
}
