import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import englishTranslation from '../src/i18n/en';
import { loggedOutEnglish } from '../src/i18n/enLoggedOut';

// The logged-out bundle has only its screens' English messages (src/i18n/enLoggedOut.ts), so
// that /login does not load the console's. These tests follow that bundle's imports from its
// entry and hold the subset to every key its modules name, and keep the console's messages out.

const sources = import.meta.glob<string>('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

const resolveImport = (from: string, specifier: string): string | undefined => {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/');
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) => candidate in sources);
};

/** The modules of src reached from `entry`: through static imports, or dynamic ones as well. */
const reachedFrom = (entry: string, { dynamic }: { dynamic: boolean }): Set<string> => {
  const pattern = dynamic ? /(?:^import(?! type)(?:[^;]*?from)?|\bimport\()\s*'(\.[^']+)'/gm : /^import(?! type)(?:[^;]*?from)?\s*'(\.[^']+)'/gm;
  const reached = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const match of sources[file]!.matchAll(pattern)) {
      const target = resolveImport(file, match[1]!);
      if (target) queue.push(target);
    }
  }
  return reached;
};

type Messages = { [key: string]: string | Messages };
const at = (messages: unknown, path: string): unknown => path.split('.').reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], messages);

describe('the logged-out bundle’s English messages', () => {
  it('hold every message key the bundle’s modules name, worded as in the console', () => {
    // Lazy screens (registration, invitations…) render under the logged-out provider too.
    const modules = [...reachedFrom('../src/pages/auth/LoggedOutApp.tsx', { dynamic: true })].filter((file) => !file.includes('/i18n/'));
    expect(modules).toEqual(expect.arrayContaining(['../src/pages/auth/LoginPage.tsx', '../src/pages/invitations/InvitationPage.tsx']));
    const named = new Set<string>();
    for (const file of modules) {
      for (const match of sources[file]!.matchAll(/['`]([a-z_]+\.[\w.]*(?:\$\{)?)/g)) {
        // A key built at run time ('roles.${role}') needs its whole branch.
        const key = match[1]!.replace(/\.?\$\{$/, '').replace(/\.$/, '');
        if (at(englishTranslation, key) !== undefined) named.add(key);
      }
    }
    expect(named.size).toBeGreaterThan(60);
    const missing = [...named].filter((key) => JSON.stringify(at(loggedOutEnglish, key)) !== JSON.stringify(at(englishTranslation, key)));
    expect(missing).toEqual([]);
  });

  it('carry the namespaces the logged-out screens share with the console whole', () => {
    // Keys can also come from outside the bundle's code: the reason a session ended
    // (app.realtime.*), stored by the console for the login page.
    for (const namespace of ['app', 'auth', 'oidc', 'roles', 'invitations.landing']) {
      expect(at(loggedOutEnglish, namespace), namespace).toEqual(at(englishTranslation, namespace));
    }
  });

  it('word react-admin’s messages as ra-language-english does', () => {
    const own = loggedOutEnglish.ra as Messages;
    const paths = (node: Messages, prefix = ''): string[] =>
      Object.entries(node).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : paths(value, `${prefix}${key}.`)));
    expect(paths(own).length).toBeGreaterThan(3);
    for (const path of paths(own)) expect(at(own, path), path).toBe(at(englishMessages.ra, path));
  });

  it('leave the console’s messages out of what /login loads', () => {
    const loaded = reachedFrom('../src/main.tsx', { dynamic: false });
    const loggedOut = reachedFrom('../src/pages/auth/LoggedOutApp.tsx', { dynamic: false });
    for (const file of ['../src/i18n/enLoggedOut.ts', '../src/i18n/provider.ts']) expect(loggedOut).toContain(file);
    for (const file of [...loaded, ...loggedOut]) expect(file).not.toMatch(/\/i18n\/(en|index|activityDescriptions)\.ts$|aupMessages/);
  });
});
