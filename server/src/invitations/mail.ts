import { APP_NAME } from '../config.js';
import { htmlMail, type MailContent } from '../mail/templates.js';

/** The invitation mail: who invites to which team (and workspaces), the link, its expiry. */
export function invitationMail(options: {
  inviter: string;
  team: string;
  role: string;
  workspaces: string[];
  link: string;
  validDays: number;
}): MailContent {
  const greeting = 'Hello,';
  const intro = `${options.inviter} invites you to join the team ${options.team} on ${APP_NAME} as ${options.role}.`;
  const spaces = options.workspaces.length > 0 ? [`You will also join these workspaces: ${options.workspaces.join(', ')}.`] : [];
  const how = 'Follow the link to accept. If you have no account yet, you can create one (or sign in with your institution) first.';
  const expiry = `The link works once and is valid for ${options.validDays} days. If you do not know this person, you can ignore this mail.`;
  return {
    subject: `${options.inviter} invites you to ${options.team} on ${APP_NAME}`,
    text: [greeting, '', intro, ...spaces, how, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [intro, ...spaces, how], action: { label: 'Accept the invitation', url: options.link }, after: [expiry] }),
  };
}
