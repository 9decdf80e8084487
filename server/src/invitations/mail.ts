import { APP_NAME } from '../config/config.js';
import type { Locale } from '../i18n/messages.js';
import { htmlMail, type MailContent } from '../mail/templates.js';

const FRENCH_ROLES: Record<string, string> = { owner: 'propriétaire', manager: 'gestionnaire', member: 'membre' };

/** The invitation mail: who invites to which team (and workspaces), the link, its expiry; in English or French. */
export function invitationMail(options: {
  inviter: string;
  team: string;
  role: string;
  workspaces: string[];
  link: string;
  validDays: number;
  locale?: Locale;
}): MailContent {
  const fr = options.locale === 'fr';
  const greeting = fr ? 'Bonjour,' : 'Hello,';
  const intro = fr
    ? `${options.inviter} vous invite à rejoindre l’équipe ${options.team} sur ${APP_NAME} en tant que ${FRENCH_ROLES[options.role] ?? options.role}.`
    : `${options.inviter} invites you to join the team ${options.team} on ${APP_NAME} as ${options.role}.`;
  const spaces =
    options.workspaces.length === 0
      ? []
      : [fr ? `Vous rejoindrez aussi ces espaces de travail : ${options.workspaces.join(', ')}.` : `You will also join these workspaces: ${options.workspaces.join(', ')}.`];
  const how = fr
    ? 'Suivez le lien pour accepter. Si vous n’avez pas encore de compte, vous pourrez en créer un (ou vous connecter avec votre établissement) d’abord.'
    : 'Follow the link to accept. If you have no account yet, you can create one (or sign in with your institution) first.';
  const expiry = fr
    ? `Le lien ne sert qu’une fois et reste valable ${options.validDays} jours. Si vous ne connaissez pas cette personne, ignorez ce message.`
    : `The link works once and is valid for ${options.validDays} days. If you do not know this person, you can ignore this mail.`;
  const label = fr ? 'Accepter l’invitation' : 'Accept the invitation';
  return {
    subject: fr ? `${options.inviter} vous invite dans ${options.team} sur ${APP_NAME}` : `${options.inviter} invites you to ${options.team} on ${APP_NAME}`,
    text: [greeting, '', intro, ...spaces, how, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [intro, ...spaces, how], action: { label, url: options.link }, after: [expiry], locale: options.locale }),
  };
}
