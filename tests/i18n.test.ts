import { afterEach, describe, expect, it, vi } from 'vitest';
import englishTranslation from '../src/i18n/en';
import frenchTranslation from '../src/i18n/fr';
import { createI18nProvider } from '../src/i18n';
import { LOCALE_KEY, acceptLanguage, browserLocale, currentLocale, matchLocale, preferredLocale, setCurrentLocale } from '../src/i18n/locale';
import { createHttpClient } from '../src/httpClient';
import { judgePassword } from '../src/utils/zxcvbn';

type Tree = { [key: string]: unknown };

/** Every leaf of a messages tree as 'a.b.c' → value. */
const flatten = (tree: Tree, prefix = ''): Map<string, unknown> => {
  const leaves = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [leaf, leafValue] of flatten(value as Tree, path)) leaves.set(leaf, leafValue);
    } else leaves.set(path, value);
  }
  return leaves;
};

const english = flatten(englishTranslation as Tree);
const french = flatten(frenchTranslation as Tree);

// Values that are the same in both languages: names, units, technical terms and words that
// French spells as English does.
const SAME_IN_BOTH = new Set([
  'Testbed Console',
  'Raspberry Pi',
  'NVIDIA Jetson',
  'CPU',
  'DHCP',
  'Pods',
  'Kubeconfig',
  '%{smart_count} kubeconfig |||| %{smart_count} kubeconfigs',
  '%{smart_count} session |||| %{smart_count} sessions',
  'privileged',
  'baseline',
  'restricted',
  'enforce %{enforce}, warn %{warn}, audit %{audit} (%{version})',
  // Two counts, each its own message in its language.
  '%{created}, %{refused}.',
  'Version 1.0',
  '11. Sanctions',
  '13. Contact',
  'Type',
  'Description',
  'Message',
  'Actions',
  'Notes',
  'Date',
  'Phase',
  'Pause',
  'Architecture',
  'Machine',
  'Conditions',
  'Affiliation',
  'Badges',
  'Invitation',
  'Invitations',
  'Cluster',
  'Quota',
  'Admin',
  'Active',
  'info',
  '—',
  '',
]);

describe('translations', () => {
  it('has every key in both languages (deep comparison)', () => {
    const onlyEnglish = [...english.keys()].filter((key) => !french.has(key));
    const onlyFrench = [...french.keys()].filter((key) => !english.has(key));
    expect({ onlyEnglish, onlyFrench }).toEqual({ onlyEnglish: [], onlyFrench: [] });
  });

  it('translates every value (identical only for the allow-list)', () => {
    const untranslated = [...english]
      // react-admin's own strings are ra-language-french's.
      .filter(([key]) => !key.startsWith('ra.'))
      .filter(([key, value]) => french.get(key) === value && !SAME_IN_BOTH.has(String(value)))
      .map(([key, value]) => `${key}: ${String(value)}`);
    expect(untranslated).toEqual([]);
  });

  // French may give a plural to what English leaves invariant ('%{smart_count} approved').
  it('keeps the placeholders and the plural forms of each message', () => {
    const placeholders = (value: unknown) => [...String(value).matchAll(/%\{(\w+)\}/g)].map((match) => match[1]).sort();
    const forms = (value: unknown) => String(value).split('||||').length;
    const mismatches = [...english]
      .filter(([key]) => french.has(key) && !key.startsWith('ra.'))
      .filter(([key, value]) => {
        const other = french.get(key);
        return JSON.stringify([...new Set(placeholders(value))]) !== JSON.stringify([...new Set(placeholders(other))]) || !(forms(value) === forms(other) || (forms(value) === 1 && forms(other) === 2 && /smart_count/.test(String(value))));
      })
      .map(([key]) => key);
    expect(mismatches).toEqual([]);
  });
});

describe('the i18n provider', () => {
  afterEach(() => setCurrentLocale('en'));

  it('starts in English and loads French when asked, with French plurals', async () => {
    const provider = createI18nProvider();
    expect(provider.getLocale()).toBe('en');
    expect(provider.translate('auth.login.submit')).toBe('Login');
    await provider.changeLocale('fr');
    expect(provider.getLocale()).toBe('fr');
    expect(currentLocale()).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(provider.translate('auth.login.submit')).toBe('Se connecter');
    expect(provider.translate('ra.action.save')).toBe('Enregistrer');
    // French: 0 and 1 take the singular.
    expect(provider.translate('app.menu.pending_requests', { smart_count: 0 })).toBe('0 demande en attente');
    expect(provider.translate('app.menu.pending_requests', { smart_count: 1 })).toBe('1 demande en attente');
    expect(provider.translate('app.menu.pending_requests', { smart_count: 3 })).toBe('3 demandes en attente');
    expect(provider.getLocales?.().map((locale) => locale.locale)).toEqual(['en', 'fr']);
  });

  it("writes react-admin's empty states in sentence case in both languages", async () => {
    const provider = createI18nProvider();
    // react-admin passes the resource's label, as for a title.
    const name = provider.translate('resources.admin/users.name', { smart_count: 0 });
    expect(name).toBe('Users');
    expect(provider.translate('ra.navigation.no_results', { name })).toBe('No users found');
    expect(provider.translate('ra.navigation.no_filtered_results', { name })).toBe('No users found using the current filters.');
    expect(provider.translate('ra.page.empty', { name })).toBe('No users yet.');
    // Elsewhere the label keeps its capital (a page title is the label alone).
    expect(provider.translate('ra.page.list', { name })).toBe('Users');
    await provider.changeLocale('fr');
    const nom = provider.translate('resources.admin/users.name', { smart_count: 0 });
    expect(provider.translate('ra.navigation.no_results', { name: nom })).toBe('Aucun résultat');
    expect(provider.translate('ra.page.empty', { name: nom })).toBe('Rien pour l’instant.');
  });

  it("writes the pagination's numbers as each language does", async () => {
    const provider = createI18nProvider();
    const range = { offsetBegin: 1, offsetEnd: 25, total: 100055 };
    expect(provider.translate('ra.navigation.page_range_info', range)).toBe('1-25 of 100,055');
    expect(provider.translate('ra.navigation.partial_page_range_info', { offsetBegin: 1001, offsetEnd: 1025 })).toBe('1,001-1,025 of more than 1,025');
    await provider.changeLocale('fr');
    expect(provider.translate('ra.navigation.page_range_info', range)).toBe('1-25 sur 100\u202f055');
  });

  it('puts a label before its value with the colon each language uses', async () => {
    const provider = createI18nProvider();
    expect(provider.translate('app.labelled', { label: 'Team' })).toBe('Team:');
    await provider.changeLocale('fr');
    expect(provider.translate('app.labelled', { label: 'Équipe' })).toBe('Équipe :');
  });

  it('writes one of each in the singular in French, where one message used to hold several counts', async () => {
    const provider = createI18nProvider();
    await provider.changeLocale('fr');
    const t = provider.translate;
    const amount = (key: string, count: number) => t(key, { smart_count: count, count: String(count) });
    expect(t('teamAdmin.suspend_content', { name: 'Lab', members: amount('adminBulk.teams.members', 1), workspaces: amount('adminBulk.teams.workspaces', 1) })).toMatch(
      /^Suspendre Lab retire à ses membres \(1 membre\) leurs droits dans l’équipe et leur accès au cluster pour ses espaces de travail \(1 espace de travail\),/,
    );
    expect(
      t('teamAdmin.delete_content', {
        name: 'Lab',
        workspaces: amount('teamAdmin.amounts.workspaces_with_namespaces', 1),
        names: 'vision',
        members: amount('teamAdmin.amounts.team_memberships', 1),
        workspace_members: amount('teamAdmin.amounts.workspace_memberships', 0),
      }),
    ).toBe(
      'Supprimer l’équipe Lab supprime 1 espace de travail et son espace de noms : vision. 1 adhésion à l’équipe et 0 adhésion aux espaces de travail disparaissent aussi. Cette action est irréversible.',
    );
    expect(t('invitations.batch.summary', { created: t('invitations.batch.created', { smart_count: 1 }), refused: t('invitations.batch.refused', { smart_count: 0 }) })).toBe(
      '1 invitée, 0 non invitée.',
    );
    expect(t('adminUsers.done.tokens', { tokens: t('adminUsers.counts.tokens', { smart_count: 1 }), smart_count: 1 })).toBe('1 jeton personnel révoqué.');
    expect(t('adminUsers.done.tokens', { tokens: t('adminUsers.counts.tokens', { smart_count: 3 }), smart_count: 3 })).toBe('3 jetons personnels révoqués.');
  });

  it("sums up a workspace's people with each count in its own number", async () => {
    const provider = createI18nProvider();
    const summary = (members: number, managers: number, requests: number) =>
      provider.translate('adminWorkspaces.counts.summary', {
        members: provider.translate('adminWorkspaces.counts.members', { smart_count: members }),
        managers: provider.translate('adminWorkspaces.counts.managers', { smart_count: managers }),
        requests: provider.translate('adminWorkspaces.counts.requests', { smart_count: requests }),
      });
    expect(summary(1, 1, 1)).toBe('1 member, 1 managing; 1 pending join request');
    expect(summary(4, 2, 0)).toBe('4 members, 2 managing; 0 pending join requests');
    await provider.changeLocale('fr');
    expect(summary(1, 1, 0)).toBe('1 membre, dont 1 gestionnaire ; 0 demande d’adhésion en attente');
    expect(summary(4, 2, 3)).toBe('4 membres, dont 2 gestionnaires ; 3 demandes d’adhésion en attente');
  });
});

describe('the language to start in', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.removeItem(LOCALE_KEY);
    setCurrentLocale('en');
  });

  it('matches language tags', () => {
    expect(matchLocale('fr-CA')).toBe('fr');
    expect(matchLocale('en_GB')).toBe('en');
    expect(matchLocale('de')).toBeUndefined();
  });

  it('is English in the tests (jsdom is en-US)', () => {
    expect(preferredLocale()).toBe('en');
  });

  it("follows the browser's first language the console speaks", () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['de-DE', 'fr-FR', 'en'], language: 'de-DE' });
    expect(browserLocale()).toBe('fr');
    expect(preferredLocale()).toBe('fr');
  });

  it("prefers the user's choice to the browser's language", () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-FR'], language: 'fr-FR' });
    localStorage.setItem(LOCALE_KEY, 'en');
    expect(preferredLocale()).toBe('en');
  });

  it('sends Accept-Language with the current language', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    const http = createHttpClient({ fetch: fetchMock as unknown as typeof fetch });
    await http('/user');
    setCurrentLocale('fr');
    expect(acceptLanguage()).toBe('fr, en;q=0.5');
    await http('/user');
    const sent = fetchMock.mock.calls.map((call) => ((call as unknown[])[1] as RequestInit).headers as Record<string, string>);
    expect(sent.map((headers) => headers['Accept-Language'])).toEqual(['en', 'fr, en;q=0.5']);
  });
});

describe("zxcvbn's advice", () => {
  afterEach(() => setCurrentLocale('en'));

  it('is in the current language, with the same score', () => {
    const english = judgePassword('password', []);
    expect(english.feedback).toMatch(/^This is a heavily used password\./);
    const french = judgePassword('password', [], 'fr');
    expect(french.score).toBe(english.score);
    expect(french.feedback).toMatch(/^Ce mot de passe est très utilisé\./);
    expect(french.feedback).not.toMatch(/heavily used/);
  });
});
