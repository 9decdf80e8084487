import { APP_NAME } from '../config/config.js';
import { escapeHtml } from '../html.js';
import { type Locale, translateMessage } from '../i18n/messages.js';

// The mails the server sends, in English and in French: each takes the recipient's
// language (`locale`, English by default: i18n/messages.ts mailLocale picks it). Each has a
// text part and an HTML part saying the same thing; every interpolated value is escaped in the
// HTML part.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** A short HTML mail: greeting, paragraphs, one button-like link, a closing paragraph. */
export function htmlMail(options: {
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  after: string[];
  locale?: Locale;
}): string {
  const copyHint = options.locale === 'fr' ? 'Si le lien ne s’ouvre pas, copiez cette adresse dans votre navigateur :' : 'If the link does not open, copy this address into your browser:';
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  return [
    '<!doctype html>',
    `<html lang="${options.locale ?? 'en'}"><body style="font-family: sans-serif; line-height: 1.5">`,
    paragraph(options.greeting),
    ...options.paragraphs.map(paragraph),
    `<p><a href="${escapeHtml(options.action.url)}">${escapeHtml(options.action.label)}</a></p>`,
    `<p>${escapeHtml(copyHint)}<br>${escapeHtml(options.action.url)}</p>`,
    ...options.after.map(paragraph),
    `<p>${escapeHtml(APP_NAME)}</p>`,
    '</body></html>',
  ].join('\n');
}

/** "Hello Ada," / "Bonjour Ada,". */
export const greetingFor = (firstname: string, locale: Locale = 'en') => (locale === 'fr' ? `Bonjour ${firstname},` : `Hello ${firstname},`);

export function verificationMail(options: { firstname: string; link: string; validMinutes: number; locale?: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `Merci de confirmer votre adresse e-mail pour terminer la création de votre compte ${APP_NAME}.`
    : `Please confirm your email address to finish setting up your ${APP_NAME} account.`;
  const expiry = fr
    ? `Le lien est valable ${options.validMinutes} minutes. Si vous n’avez pas créé de compte, ignorez ce message.`
    : `The link is valid for ${options.validMinutes} minutes. If you did not create an account, you can ignore this mail.`;
  return {
    subject: fr ? `Vérifiez votre adresse e-mail pour ${APP_NAME}` : `Verify your email address for ${APP_NAME}`,
    text: [greeting, '', intro, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro],
      action: { label: fr ? 'Vérifier mon adresse e-mail' : 'Verify my email address', url: options.link },
      after: [expiry],
      locale: options.locale,
    }),
  };
}

export function passwordResetMail(options: { firstname: string; link: string; validMinutes: number; locale?: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `Quelqu’un a demandé à réinitialiser le mot de passe de votre compte ${APP_NAME}. Choisissez un nouveau mot de passe ici :`
    : `Someone asked to reset the password of your ${APP_NAME} account. Choose a new password here:`;
  const expiry = fr
    ? `Le lien ne fonctionne qu’une fois et reste valable ${options.validMinutes} minutes. Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.`
    : `The link works once and is valid for ${options.validMinutes} minutes. If you did not ask for it, you can ignore this mail: your password stays as it is.`;
  return {
    subject: fr ? `Réinitialisez votre mot de passe ${APP_NAME}` : `Reset your ${APP_NAME} password`,
    text: [greeting, '', intro, '', options.link, '', expiry, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro],
      action: { label: fr ? 'Choisir un nouveau mot de passe' : 'Choose a new password', url: options.link },
      after: [expiry],
      locale: options.locale,
    }),
  };
}

/**
 * After a password reset: the password changed, and every session and personal access token
 * of the account was revoked. Also the alarm for a reset the owner did not make.
 */
export function passwordChangedMail(options: {
  firstname: string;
  link: string;
  revokedTokens: number;
  /** The identities the reset unlinked, as identityLabel() names them. */
  unlinkedIdentities?: string[];
  locale?: Locale;
}): MailContent {
  const fr = options.locale === 'fr';
  const unlinked = options.unlinkedIdentities ?? [];
  const count = options.revokedTokens;
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `Le mot de passe de votre compte ${APP_NAME} a été modifié au moyen d’un lien de réinitialisation.`
    : `The password of your ${APP_NAME} account was changed through a password reset link.`;
  const revoked = fr
    ? `Pour exclure toute personne qui connaissait l’ancien mot de passe, toutes les sessions de connexion et tous les jetons d’accès personnels de votre compte ont été révoqués${
        count > 0 ? ` (${count} jeton${count === 1 ? '' : 's'} d’accès personnel${count === 1 ? '' : 's'})` : ''
      }. Reconnectez-vous avec le nouveau mot de passe, et créez de nouveaux jetons d’accès pour les scripts et outils qui en ont besoin.`
    : `To lock out anyone who knew the old password, every login session and every personal access token of your account was revoked${
        count > 0 ? ` (${count} personal access token${count === 1 ? '' : 's'})` : ''
      }. Log in again with the new password, and create new access tokens for the scripts and tools that need one.`;
  const identities =
    unlinked.length === 0
      ? []
      : [
          fr
            ? `Les identités institutionnelles associées à votre compte avec un mot de passe ont aussi été dissociées : ${unlinked.join(', ')}. Si elles sont à vous, associez-les à nouveau depuis votre profil.`
            : `The institutional identities linked to your account with a password were unlinked as well: ${unlinked.join(', ')}. If they are yours, link them again from your profile.`,
        ];
  const warning = fr
    ? `Si vous n’avez pas réinitialisé votre mot de passe, quelqu’un d’autre peut lire vos e-mails : sécurisez votre messagerie, réinitialisez à nouveau votre mot de passe et prévenez les administrateurs de la plateforme.`
    : `If you did not reset your password, someone else may be able to read your mail: secure your mailbox, reset your password again and tell the platform admins.`;
  return {
    subject: fr ? `Votre mot de passe ${APP_NAME} a été modifié` : `Your ${APP_NAME} password was changed`,
    text: [greeting, '', intro, '', revoked, ...identities.flatMap((line) => ['', line]), '', options.link, '', warning, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, revoked, ...identities],
      action: { label: fr ? 'Se connecter' : 'Log in', url: options.link },
      after: [warning],
      locale: options.locale,
    }),
  };
}

/**
 * To the account's owner whenever an institutional identity is linked to it: the alarm for a
 * link made with a stolen password. `link` is the console's forgot-password page.
 */
export function identityLinkedMail(options: { firstname: string; providerName: string; account: string; link: string; locale?: Locale }): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `L’identité ${options.providerName} ${options.account} a été associée à votre compte ${APP_NAME} : elle permet désormais de s’y connecter.`
    : `The ${options.providerName} identity ${options.account} was linked to your ${APP_NAME} account: it can now be used to sign in to it.`;
  const warning = fr
    ? `Si ce n’était pas vous, quelqu’un connaît votre mot de passe : réinitialisez-le ici. La réinitialisation dissocie les identités associées avec un mot de passe et révoque toutes les sessions.`
    : `If this wasn’t you, someone knows your password: reset it here. A reset unlinks the identities linked with a password and revokes every session.`;
  return {
    subject: fr ? `Une identité a été associée à votre compte ${APP_NAME}` : `An identity was linked to your ${APP_NAME} account`,
    text: [greeting, '', intro, '', warning, '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, warning],
      action: { label: fr ? 'Réinitialiser mon mot de passe' : 'Reset my password', url: options.link },
      after: [],
      locale: options.locale,
    }),
  };
}

/** To each person who may decide a new request. `what` reads "join the team “Edge Lab”" (in the mail's language). */
export function requestCreatedMail(options: {
  firstname: string;
  requesterName: string;
  what: string;
  message: string | null;
  link: string;
  locale?: Locale;
}): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  const intro = fr
    ? `${options.requesterName} demande à ${options.what}. Vous faites partie des personnes qui peuvent approuver ou refuser cette demande.`
    : `${options.requesterName} asks to ${options.what}. You are one of the people who may approve or deny this request.`;
  const note = options.message ? [fr ? `Son message : ${options.message}` : `Their message: ${options.message}`] : [];
  const outro = fr ? 'Ouvrez la page des demandes de la console pour décider.' : 'Open the requests page of the console to decide.';
  return {
    subject: fr ? `Nouvelle demande : ${options.requesterName} demande à ${options.what}` : `New request: ${options.requesterName} asks to ${options.what}`,
    text: [greeting, '', intro, ...note.flatMap((line) => ['', line]), '', outro, options.link, '', APP_NAME].join('\n'),
    html: htmlMail({
      greeting,
      paragraphs: [intro, ...note],
      action: { label: fr ? 'Examiner la demande' : 'Review the request', url: options.link },
      after: [],
      locale: options.locale,
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
  locale?: Locale;
}): MailContent {
  const fr = options.locale === 'fr';
  const greeting = greetingFor(options.firstname, options.locale);
  // The console's own reasons ("The team was deleted.") in the mail's language; a decider's words as written.
  const decisionMessage = options.decisionMessage ? translateMessage(options.decisionMessage, options.locale ?? 'en') : null;
  const note = decisionMessage ? [fr ? `Message : ${decisionMessage}` : `Message: ${decisionMessage}`] : [];
  if (fr) {
    const verdict = options.approved ? 'approuvée' : 'refusée';
    const intro = `Votre demande pour ${options.what} a été ${verdict}${options.deciderName ? ` par ${options.deciderName}` : ''}.`;
    const label = options.approved ? 'L’ouvrir dans la console' : 'Voir vos demandes';
    return {
      subject: `Votre demande a été ${verdict} : ${options.what}`,
      text: [greeting, '', intro, ...note.flatMap((line) => ['', line]), '', options.link, '', APP_NAME].join('\n'),
      html: htmlMail({ greeting, paragraphs: [intro, ...note], action: { label, url: options.link }, after: [], locale: 'fr' }),
    };
  }
  const verdict = options.approved ? 'approved' : 'denied';
  const intro = `Your request to ${options.what} was ${verdict}${options.deciderName ? ` by ${options.deciderName}` : ''}.`;
  const label = options.approved ? 'Open it in the console' : 'See your requests';
  return {
    subject: `Your request was ${verdict}: ${options.what}`,
    text: [greeting, '', intro, ...note.flatMap((line) => ['', line]), '', options.link, '', APP_NAME].join('\n'),
    html: htmlMail({ greeting, paragraphs: [intro, ...note], action: { label, url: options.link }, after: [], locale: options.locale }),
  };
}
