import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import { accounts } from './catalogue/accounts.js';
import { admin } from './catalogue/admin.js';
import { common } from './catalogue/common.js';
import { lifecycle } from './catalogue/lifecycle.js';
import { nodes } from './catalogue/nodes.js';
import { teams } from './catalogue/teams.js';
import { usage } from './catalogue/usage.js';

// The server's messages in the person's language (English or French). The code keeps writing its
// messages in English, as Laravel's do ("The firstname field is required."); this catalogue
// gives each English message (a template: `:field`, `:max`… stand for the variable parts) its
// French. translateMessage() turns any message the catalogue knows into the asked language,
// with field names in that language too; a message it does not know stays as it is (English).
// The error handler runs every answer's `message` and `errors` through it (http/errors.ts), so a
// new message only needs a line in its domain's catalogue/ file; test/i18nCoverage.test.ts
// finds the messages in the server's source and fails on one without its French.

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * English template → French template, by domain (catalogue/). Placeholders (`:name`) match any
 * text in the English message. The domains' specific messages come before the shared generic
 * rules, so that a specific wording wins where both match.
 */
const catalogue: Record<string, string> = { ...accounts, ...teams, ...admin, ...nodes, ...lifecycle, ...usage, ...common };

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
  role: 'rôle',
  workspace: 'espace de travail',
  workspace_ids: 'espaces de travail',
  emails: 'adresses',
  q: 'recherche',
  summary: 'résumé',
  text: 'texte',
  'text.en': 'texte anglais',
  'text.fr': 'texte français',
  expires_at: 'date de fin',
  membership_expires_at: 'date de fin de l’adhésion',
  limit: 'limite',
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

// Messages without placeholders (a colon followed by a space is text: "admin: make someone…").
const exact = new Map(Object.entries(catalogue).filter(([english]) => !/:[a-z_]/.test(english)));

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

/** An answer's `message`, each of its field messages and its bulk results' messages in `locale`. */
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
  // Bulk answers: each item's message ({results: [{id, status, message}]}).
  if (Array.isArray(answer.results)) {
    translated.results = answer.results.map((item: unknown) =>
      item !== null && typeof item === 'object' && typeof (item as { message?: unknown }).message === 'string'
        ? { ...item, message: translateMessage((item as { message: string }).message, locale) }
        : item,
    );
  }
  return translated as T;
}

/**
 * Texts the console wrote into records and that answers carry as data: a request's
 * `decision_message` when the console decided it itself ("The team was deleted.", "The cluster
 * refused this workspace: …"). A person's own words (a decider's message) are not in the
 * catalogue and stay as written. Walks the answer (requests sit at its top, in `data`, in a
 * user's or team's `requests`…), copying only what it changes.
 */
const STORED_TEXT_KEYS = new Set(['decision_message']);

export function translateStoredTexts<T>(body: T, locale: Locale, depth = 0): T {
  if (locale === 'en' || body === null || typeof body !== 'object' || depth > 6) return body;
  if (Array.isArray(body)) {
    let changed: unknown[] | undefined;
    body.forEach((item, index) => {
      const translated = translateStoredTexts(item, locale, depth + 1);
      if (translated !== item) (changed ??= [...body])[index] = translated;
    });
    return (changed ?? body) as T;
  }
  let changed: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const translated =
      typeof value === 'string' ? (STORED_TEXT_KEYS.has(key) ? translateMessage(value, locale) : value) : translateStoredTexts(value, locale, depth + 1);
    if (translated !== value) (changed ??= { ...(body as Record<string, unknown>) })[key] = translated;
  }
  return (changed ?? body) as T;
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
