import { APP_NAME } from '../config.js';
import { escapeHtml } from '../html.js';

// The mails the server sends. Each has a text part and an HTML part saying the same thing;
// every interpolated value is escaped in the HTML part.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** A short HTML mail: greeting, paragraphs, one button-like link, a closing paragraph. */
export function htmlMail(options: { greeting: string; paragraphs: string[]; action: { label: string; url: string }; after: string[] }): string {
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  return [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    paragraph(options.greeting),
    ...options.paragraphs.map(paragraph),
    `<p><a href="${escapeHtml(options.action.url)}">${escapeHtml(options.action.label)}</a></p>`,
    `<p>If the link does not open, copy this address into your browser:<br>${escapeHtml(options.action.url)}</p>`,
    ...options.after.map(paragraph),
    `<p>${escapeHtml(APP_NAME)}</p>`,
    '</body></html>',
  ].join('\n');
}

export function verificationMail(options: { firstname: string; link: string; validMinutes: number }): MailContent {
  const greeting = `Hello ${options.firstname},`;
  const intro = `Please confirm your email address to finish setting up your ${APP_NAME} account.`;
  const expiry = `The link is valid for ${options.validMinutes} minutes. If you did not create an account, you can ignore this mail.`;
  return {
    subject: `Verify your email address for ${APP_NAME}`,
    text: [greeting, '', intro, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro],
      action: { label: 'Verify my email address', url: options.link },
      after: [expiry],
    }),
  };
}

export function passwordResetMail(options: { firstname: string; link: string; validMinutes: number }): MailContent {
  const greeting = `Hello ${options.firstname},`;
  const intro = `Someone asked to reset the password of your ${APP_NAME} account. Choose a new password here:`;
  const expiry = `The link works once and is valid for ${options.validMinutes} minutes. If you did not ask for it, you can ignore this mail: your password stays as it is.`;
  return {
    subject: `Reset your ${APP_NAME} password`,
    text: [greeting, '', intro, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro],
      action: { label: 'Choose a new password', url: options.link },
      after: [expiry],
    }),
  };
}

/**
 * After a password reset: the password changed, and every session and personal access token
 * of the account was revoked. Also the alarm for a reset the owner did not make.
 */
export function passwordChangedMail(options: { firstname: string; link: string; revokedTokens: number }): MailContent {
  const greeting = `Hello ${options.firstname},`;
  const intro = `The password of your ${APP_NAME} account was changed through a password reset link.`;
  const revoked = `To lock out anyone who knew the old password, every login session and every personal access token of your account was revoked${
    options.revokedTokens > 0 ? ` (${options.revokedTokens} personal access token${options.revokedTokens === 1 ? '' : 's'})` : ''
  }. Log in again with the new password, and create new access tokens for the scripts and tools that need one.`;
  const warning = `If you did not reset your password, someone else may be able to read your mail: secure your mailbox, reset your password again and tell the platform admins.`;
  return {
    subject: `Your ${APP_NAME} password was changed`,
    text: [greeting, '', intro, '', revoked, '', options.link, '', warning, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, revoked],
      action: { label: 'Log in', url: options.link },
      after: [warning],
    }),
  };
}

/** To each person who may decide a new request. `what` reads "join the team “Edge Lab”". */
export function requestCreatedMail(options: {
  firstname: string;
  requesterName: string;
  what: string;
  message: string | null;
  link: string;
}): MailContent {
  const greeting = `Hello ${options.firstname},`;
  const intro = `${options.requesterName} asks to ${options.what}. You are one of the people who may approve or deny this request.`;
  const note = options.message ? [`Their message: ${options.message}`] : [];
  const outro = 'Open the requests page of the console to decide.';
  return {
    subject: `New request: ${options.requesterName} asks to ${options.what}`,
    text: [greeting, '', intro, ...note.flatMap((line) => ['', line]), '', outro, options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, ...note],
      action: { label: 'Review the request', url: options.link },
      after: [],
    }),
  };
}

/** To the requester once their request is approved or denied. */
export function requestDecidedMail(options: {
  firstname: string;
  what: string;
  approved: boolean;
  deciderName: string | null;
  decisionMessage: string | null;
  link: string;
}): MailContent {
  const verdict = options.approved ? 'approved' : 'denied';
  const greeting = `Hello ${options.firstname},`;
  const intro = `Your request to ${options.what} was ${verdict}${options.deciderName ? ` by ${options.deciderName}` : ''}.`;
  const note = options.decisionMessage ? [`Message: ${options.decisionMessage}`] : [];
  const label = options.approved ? 'Open it in the console' : 'See your requests';
  return {
    subject: `Your request was ${verdict}: ${options.what}`,
    text: [greeting, '', intro, ...note.flatMap((line) => ['', line]), '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [intro, ...note], action: { label, url: options.link }, after: [] }),
  };
}
