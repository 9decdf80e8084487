import { APP_NAME } from '../config/config.js';
import type { Locale } from '../i18n/messages.js';
import { greetingFor, htmlMail, type MailContent } from '../mail/templates.js';

/** "2026-11": the month an allocation is for, the same in both languages. */
const month = (periodStart: string) => periodStart.slice(0, 7);
const hours = (value: number, locale?: Locale) => new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(value);

/**
 * To a team's owners and managers: the team used 90 % of this month's CPU allocation, or all
 * of it (new pods are then refused until the next month or a larger allocation); in their language.
 */
export function allocationMail(options: {
  firstname: string;
  teamName: string;
  used: number;
  allocation: number;
  periodStart: string;
  usedUp: boolean;
  link: string;
  locale?: Locale;
}): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const used = hours(options.used, options.locale);
  const allocation = hours(options.allocation, options.locale);
  const period = month(options.periodStart);
  const status = options.usedUp
    ? fr
      ? `L’équipe ${options.teamName} a utilisé toute son allocation de CPU pour ${period} : ${used} heures-cœur sur ${allocation}. Ses espaces de travail n’acceptent plus de nouveaux pods ; ceux qui tournent continuent.`
      : `The team ${options.teamName} has used all of its CPU allocation for ${period}: ${used} of ${allocation} core-hours. Its workspaces accept no new pods; those running go on.`
    : fr
      ? `L’équipe ${options.teamName} a utilisé ${used} des ${allocation} heures-cœur de CPU de son allocation pour ${period}.`
      : `The team ${options.teamName} has used ${used} of the ${allocation} CPU core-hours of its allocation for ${period}.`;
  const next = fr
    ? 'L’allocation revient au début du mois prochain. Pour en avoir plus avant, demandez-le aux administrateurs de la plateforme depuis la page de l’équipe.'
    : "The allocation comes back at the start of next month. To have more before then, ask the platform admins from the team's page.";
  const subject = options.usedUp
    ? fr
      ? `${options.teamName} : allocation de CPU épuisée sur ${APP_NAME}`
      : `${options.teamName}: CPU allocation used up on ${APP_NAME}`
    : fr
      ? `${options.teamName} : 90 % de l’allocation de CPU utilisés sur ${APP_NAME}`
      : `${options.teamName}: 90% of the CPU allocation used on ${APP_NAME}`;
  return {
    subject,
    text: [greeting, '', status, '', next, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [status],
      action: { label: fr ? 'Ouvrir la page de l’équipe' : "Open the team's page", url: options.link },
      after: [next],
      locale: options.locale,
    }),
  };
}
