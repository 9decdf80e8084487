import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';

// The server's messages in the person's language (issue 15). The code keeps writing its
// messages in English, as Laravel's do ("The firstname field is required."); this catalogue
// gives each English message (a template: `:field`, `:max`… stand for the variable parts) its
// French. translateMessage() turns any message the catalogue knows into the asked language,
// with field names in that language too; a message it does not know stays as it is (English).
// The error handler runs every answer's `message` and `errors` through it (http/errors.ts), so a
// new message only needs a line here.

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** English template → French template. Placeholders (`:name`) match any text in the English message. */
const catalogue: Record<string, string> = {
  // Generic field rules (http/schemas.ts and the domain schemas).
  'The :field field is required.': 'Le champ :field est obligatoire.',
  'The :field field must be a string.': 'Le champ :field doit être une chaîne de caractères.',
  'The :field field must not be greater than :max characters.': 'Le champ :field ne doit pas dépasser :max caractères.',
  'The :field field must be at least :min characters.': 'Le champ :field doit contenir au moins :min caractères.',
  'The :field field must not contain line breaks or other control characters.':
    'Le champ :field ne doit contenir ni saut de ligne ni autre caractère de contrôle.',
  'The :field field contains an invalid character.': 'Le champ :field contient un caractère invalide.',
  'The :field field must be an integer.': 'Le champ :field doit être un nombre entier.',
  'The :field field must be a number.': 'Le champ :field doit être un nombre.',
  'The :field field must be true or false.': 'Le champ :field doit valoir true ou false.',
  'The selected :field is invalid.': 'La valeur choisie pour :field est invalide.',
  'The value is invalid.': 'La valeur est invalide.',
  'The given data was invalid.': 'Les données envoyées sont invalides.',
  'Invalid email': 'Adresse e-mail invalide',
  'Invalid URL': 'URL invalide',
  'Invalid name': 'Nom invalide',
  'The request body must be a JSON object.': 'Le corps de la requête doit être un objet JSON.',
  'The request body is not valid JSON.': 'Le corps de la requête n’est pas du JSON valide.',
  'Invalid request.': 'Requête invalide.',

  // Accounts: registration, login, verification, password reset.
  'The email has already been taken.': 'Cette adresse e-mail est déjà utilisée.',
  'The password confirmation does not match.': 'La confirmation du mot de passe ne correspond pas.',
  'The password is too easy to guess.': 'Le mot de passe est trop facile à deviner.',
  'These credentials do not match our records.': 'Ces identifiants ne correspondent à aucun compte.',
  'This account is disabled.': 'Ce compte est désactivé.',
  'Thanks for registering! We have emailed you a link to verify your email address; it may take a few minutes to arrive.':
    'Merci de votre inscription ! Nous vous avons envoyé par e-mail un lien pour vérifier votre adresse ; il peut mettre quelques minutes à arriver.',
  'A new verification link has been sent to your email address.': 'Un nouveau lien de vérification a été envoyé à votre adresse e-mail.',
  'Your email address is already verified.': 'Votre adresse e-mail est déjà vérifiée.',
  'Your email address is verified.': 'Votre adresse e-mail est vérifiée.',
  'This verification link is invalid or has expired.': 'Ce lien de vérification est invalide ou a expiré.',
  'If an account exists for this address, we have emailed a password reset link.':
    'Si un compte existe pour cette adresse, nous lui avons envoyé par e-mail un lien de réinitialisation du mot de passe.',
  'Your password has been updated. Every session and personal access token of the account has been revoked.':
    'Votre mot de passe a été mis à jour. Toutes les sessions et tous les jetons d’accès personnels du compte ont été révoqués.',
  'This password reset link is invalid or has expired.': 'Ce lien de réinitialisation du mot de passe est invalide ou a expiré.',
  'Too many attempts. Try again in :seconds seconds.': 'Trop de tentatives. Réessayez dans :seconds secondes.',
  'Unauthenticated.': 'Non authentifié.',
  'This action is unauthorized.': 'Cette action n’est pas autorisée.',
  'Not found.': 'Introuvable.',

  // Tokens.
  'You already have a token with this name.': 'Vous avez déjà un jeton portant ce nom.',

  // Teams, workspaces and requests.
  'A team with this short name already exists.': 'Une équipe avec ce nom court existe déjà.',
  'A team with this name already exists.': 'Une équipe avec ce nom existe déjà.',
  'A workspace with this name already exists in this team.': 'Un espace de travail avec ce nom existe déjà dans cette équipe.',
  'A request for this is already pending.': 'Une demande pour cela est déjà en attente.',
  'You are not a member of this team.': 'Vous n’êtes pas membre de cette équipe.',
  'You are no longer a member of this team.': 'Vous n’êtes plus membre de cette équipe.',
  'You are not a member of this workspace.': 'Vous n’êtes pas membre de cet espace de travail.',
  'This person is not a member of this team.': 'Cette personne n’est pas membre de cette équipe.',
  'This person is not a member of this workspace.': 'Cette personne n’est pas membre de cet espace de travail.',
  'This request has already been decided.': 'Cette demande a déjà été traitée.',
  'You may not decide this request.': 'Vous ne pouvez pas décider de cette demande.',
  'A team keeps at least one owner: make someone else an owner first.':
    'Une équipe garde au moins un propriétaire : nommez d’abord quelqu’un d’autre propriétaire.',
  'Only an owner can change or remove an owner, or make someone an owner.':
    'Seul un propriétaire peut modifier ou retirer un propriétaire, ou nommer quelqu’un propriétaire.',
  "Only the team's owners and managers can remove members.": 'Seuls les propriétaires et gestionnaires de l’équipe peuvent retirer des membres.',
  "Only the workspace's managers and its team's managers can remove members.":
    'Seuls les gestionnaires de l’espace de travail et ceux de son équipe peuvent retirer des membres.',
  'The team no longer exists.': 'L’équipe n’existe plus.',
  'The workspace no longer exists.': 'L’espace de travail n’existe plus.',
};

/** Field names as a French form labels them (the English message names the field as sent). */
const frenchFields: Record<string, string> = {
  firstname: 'prénom',
  lastname: 'nom',
  email: 'adresse e-mail',
  password: 'mot de passe',
  password_confirmation: 'confirmation du mot de passe',
  name: 'nom',
  label: 'libellé',
  fullname: 'nom complet',
  shortname: 'nom court',
  affiliation: 'affiliation',
  country: 'pays',
  city: 'ville',
  url: 'site web',
  joining_reason: 'motif',
  joining_category: 'catégorie',
  message: 'message',
  team_id: 'équipe',
  workspace_id: 'espace de travail',
  description: 'description',
  expires_in_days: 'durée de validité (jours)',
  overwrite: 'overwrite',
  locale: 'langue',
  action: 'action',
  code: 'code',
  hostname: 'nom d’hôte',
  notes: 'notes',
  type: 'type',
};

interface CompiledEntry {
  pattern: RegExp;
  names: string[];
  french: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled: CompiledEntry[] = Object.entries(catalogue).map(([english, french]) => {
  const names: string[] = [];
  const source = english
    .split(/(:[a-z_]+)/)
    .map((part) => {
      if (/^:[a-z_]+$/.test(part)) {
        names.push(part.slice(1));
        return '(.+?)';
      }
      return escapeRegExp(part);
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`, 's'), names, french };
});

const exact = new Map(Object.entries(catalogue).filter(([english]) => !english.includes(':')));

type ZxcvbnTranslations = Record<'warnings' | 'suggestions', Record<string, string>>;
let zxcvbnAdvice: [string, string][] | undefined;

/**
 * zxcvbn's warnings and suggestions (auth/passwordStrength.ts writes them in English) in French,
 * from the French package's translations of the same keys. Loaded on first use, as
 * passwordStrength.ts loads zxcvbn (the translations only, not the dictionaries).
 */
function translateAdvice(advice: string, locale: Locale): string {
  if (locale !== 'fr') return advice;
  if (!zxcvbnAdvice) {
    const require = createRequire(import.meta.url);
    const english = require('@zxcvbn-ts/language-en/dist/translations.cjs') as ZxcvbnTranslations;
    const french = require('@zxcvbn-ts/language-fr/dist/translations.cjs') as ZxcvbnTranslations;
    zxcvbnAdvice = (['warnings', 'suggestions'] as const)
      .flatMap((kind) => Object.entries(english[kind]).map(([key, text]): [string, string] => [text, french[kind][key] ?? text]))
      // Longest first: a sentence that contains another is replaced whole.
      .sort(([a], [b]) => b.length - a.length);
  }
  let translated = advice;
  for (const [english, french] of zxcvbnAdvice) if (english && translated.includes(english)) translated = translated.split(english).join(french);
  return translated;
}

/** One message in `locale`; a message the catalogue does not know is returned as it is. */
export function translateMessage(message: string, locale: Locale): string {
  if (locale === 'en' || !message) return message;
  const known = exact.get(message);
  if (known !== undefined) return known;
  // "The password is too easy to guess. <zxcvbn's advice>": the known sentence, then the advice.
  for (const [english, french] of exact) {
    if (message.startsWith(`${english} `) && english.endsWith('.')) return `${french}${translateAdvice(message.slice(english.length), locale)}`;
  }
  for (const entry of compiled) {
    if (entry.names.length === 0) continue;
    const match = entry.pattern.exec(message);
    if (!match) continue;
    const values = Object.fromEntries(entry.names.map((name, index) => [name, match[index + 1]]));
    return entry.french.replace(/:([a-z_]+)/g, (whole, name: string) => {
      const value = values[name];
      if (value === undefined) return whole;
      return name === 'field' ? (frenchFields[value] ?? value) : value;
    });
  }
  return message;
}

/** An answer's `message` and each of its field messages in `locale` (the JSON bodies of 4xx answers). */
export function translateAnswer<T>(body: T, locale: Locale): T {
  if (locale === 'en' || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const answer = body as Record<string, unknown>;
  const translated: Record<string, unknown> = { ...answer };
  if (typeof answer.message === 'string') translated.message = translateMessage(answer.message, locale);
  if (answer.errors && typeof answer.errors === 'object' && !Array.isArray(answer.errors)) {
    translated.errors = Object.fromEntries(
      Object.entries(answer.errors as Record<string, unknown>).map(([field, messages]) => [
        field,
        Array.isArray(messages) ? messages.map((message) => (typeof message === 'string' ? translateMessage(message, locale) : message)) : messages,
      ]),
    );
  }
  return translated as T;
}

/**
 * The language an Accept-Language header prefers among ours ('fr-CA,fr;q=0.9,en;q=0.8' → 'fr'),
 * undefined when it names none of them (or is absent).
 */
export function localeFromAcceptLanguage(header: string | string[] | undefined): Locale | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  const ranges = value
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((found) => found !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag && range.q > 0 && !Number.isNaN(range.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const primary = range.tag.split('-')[0];
    if (isLocale(primary)) return primary;
  }
  return undefined;
}

/**
 * The language to answer a request in: its Accept-Language (the console sends its own
 * language), else the signed-in user's saved language, else English.
 */
export function requestLocale(request: Pick<FastifyRequest, 'headers'> & { user?: { locale?: string | null } | null }): Locale {
  const fromHeader = localeFromAcceptLanguage(request.headers['accept-language']);
  if (fromHeader) return fromHeader;
  const saved = request.user?.locale;
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

/** The language of a mail to `user`: theirs if they chose one, else `fallback` (the request's, at registration). */
export function mailLocale(user: { locale?: string | null }, fallback: Locale = DEFAULT_LOCALE): Locale {
  return isLocale(user.locale) ? user.locale : fallback;
}
