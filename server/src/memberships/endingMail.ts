import { APP_NAME } from '../config/config.js';
import type { Locale } from '../i18n/messages.js';
import { greetingFor, htmlMail, type MailContent } from '../mail/templates.js';

/** One membership whose end is near, as a warning mail lists it. */
export interface EndingMembership {
  teamName: string;
  /** The member's name and address; null when the mail goes to the member themself. */
  member: { name: string; email: string } | null;
  expiresAt: string;
}

/** "2030-06-30 22:00 UTC": the same in both languages, and unambiguous across time zones. */
export const mailDate = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The warning before memberships end: one mail per person and pass, listing the person's own
 * memberships that end and those ending in the teams they own or manage; in their language.
 */
export function membershipsEndingMail(options: { firstname: string; entries: EndingMembership[]; link: string; locale?: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const lines = options.entries.map((entry) => {
    const at = mailDate(entry.expiresAt);
    if (!entry.member) return fr ? `Votre adhésion à l’équipe ${entry.teamName} se termine le ${at}.` : `Your membership of the team ${entry.teamName} ends on ${at}.`;
    const who = `${entry.member.name} (${entry.member.email})`;
    return fr ? `L’adhésion de ${who} à l’équipe ${entry.teamName} se termine le ${at}.` : `The membership of ${who} in the team ${entry.teamName} ends on ${at}.`;
  });
  const intro = fr
    ? 'À la fin d’une adhésion, la personne quitte l’équipe et ses espaces de travail, et perd son accès au cluster.'
    : 'When a membership ends, the person leaves the team and its workspaces and loses their access to the cluster.';
  const outro = fr
    ? 'Les propriétaires et gestionnaires de l’équipe peuvent changer ou retirer la date de fin dans la liste des membres.'
    : "The team's owners and managers can change or remove the end date in the team's members list.";
  return {
    subject: fr ? `Des adhésions à des équipes se terminent bientôt sur ${APP_NAME}` : `Team memberships ending soon on ${APP_NAME}`,
    text: [greeting, '', ...lines, '', intro, outro, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [...lines, intro],
      action: { label: fr ? 'Ouvrir la console' : 'Open the console', url: options.link },
      after: [outro],
      locale: options.locale,
    }),
  };
}
