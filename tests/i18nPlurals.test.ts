import { describe, expect, it } from 'vitest';
import englishTranslation from '../src/i18n/en';
import frenchTranslation from '../src/i18n/fr';
import { createI18nProvider } from '../src/i18n';

// Counts in both catalogues go through polyglot's plural forms (`singular |||| plural`, chosen
// by `smart_count`, as react-admin does): French uses the singular for 0 and 1, English for 1
// only, so a form that writes "1" itself, or a count without forms, reads wrong in one of them
// ("révoque 1 jeton personnel" for someone with none).

type Tree = { [key: string]: unknown };

const flatten = (tree: Tree, prefix = ''): Map<string, string> => {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [leaf, leafValue] of flatten(value as Tree, path)) leaves.set(leaf, leafValue);
    } else if (typeof value === 'string') leaves.set(path, value);
  }
  return leaves;
};

const catalogues = { en: flatten(englishTranslation as Tree), fr: flatten(frenchTranslation as Tree) };

/** A message takes a count when it shows one or has plural forms. */
const takesCount = (message: string) => /%\{(smart_count|count)\}/.test(message) || message.includes('||||');

/**
 * Sentences with several counts (polyglot chooses a form by one): each count there is of
 * things that are several whenever the sentence is shown.
 */
const SEVERAL_COUNTS = new Set<string>([]);

const countKeys = [...new Set([...catalogues.en, ...catalogues.fr].filter(([, message]) => takesCount(message)).map(([key]) => key))].sort();

describe('plural forms in both catalogues', () => {
  it('finds the messages that take a count', () => {
    expect(countKeys.length).toBeGreaterThan(30);
    expect(countKeys).toContain('adminUsers.counts.tokens');
  });

  it('every message taking a count has a singular and a plural form in both languages, none writing a number of its own', () => {
    const wrong: string[] = [];
    for (const key of countKeys) {
      if (SEVERAL_COUNTS.has(key)) continue;
      for (const [locale, messages] of Object.entries(catalogues)) {
        const message = messages.get(key);
        if (message === undefined) {
          wrong.push(`${locale} ${key}: missing`);
          continue;
        }
        const forms = message.split('||||');
        if (forms.length !== 2) wrong.push(`${locale} ${key}: ${forms.length} form(s)`);
        // "1 jeton", "Une demande": the singular is also French's 0, so it shows the number it
        // is given (%{smart_count}, or %{count} formatted) or none ("Élément supprimé").
        if (forms.some((form) => /(^|[\s+])(1|One|one|Un|Une)\s/.test(form.trim()))) wrong.push(`${locale} ${key}: a number of its own: ${message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('callers give smart_count, by which polyglot chooses the form, wherever they give a count', () => {
    const calls: string[] = [];
    const sources = import.meta.glob<string>('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
    for (const [path, source] of Object.entries(sources)) {
      if (path.includes('/i18n/')) continue;
      // `translate('key', { count: … })` without smart_count: the form would never be chosen.
      for (const match of source.matchAll(/translate\(\s*[`'"]([^`'"]+)[`'"],\s*\{([^}]*)\}/g)) {
        if (SEVERAL_COUNTS.has(match[1])) continue;
        if (/\bcount:/.test(match[2]) && !/smart_count/.test(match[2])) calls.push(`${path}: ${match[0]}`);
      }
    }
    expect(calls).toEqual([]);
  });

  it('French says 0 and 1 in the singular, English 0 in the plural', async () => {
    const en = createI18nProvider();
    const fr = createI18nProvider();
    await fr.changeLocale('fr');
    for (const key of countKeys) {
      if (SEVERAL_COUNTS.has(key)) continue;
      const [frSingular] = catalogues.fr.get(key)!.split('||||').map((form) => form.trim());
      const [, enPlural] = catalogues.en.get(key)!.split('||||').map((form) => form.trim());
      const fill = (form: string, n: number) => form.replace(/%\{(smart_count|count)\}/g, String(n));
      // Other placeholders are left as they are (allowMissing): only the count matters here.
      const options = (n: number) => ({ smart_count: n, count: n });
      expect(fr.translate(key, options(0)), key).toBe(fill(frSingular, 0));
      expect(fr.translate(key, options(1)), key).toBe(fill(frSingular, 1));
      expect(en.translate(key, options(0)), key).toBe(fill(enPlural, 0));
    }
    expect(fr.translate('adminUsers.counts.tokens', { smart_count: 0 })).toBe('0 jeton personnel');
    expect(fr.translate('adminUsers.counts.sessions', { smart_count: 0 })).toBe('0 session');
    expect(en.translate('adminUsers.counts.tokens', { smart_count: 0 })).toBe('0 personal tokens');
    await fr.changeLocale('en');
  });
});
