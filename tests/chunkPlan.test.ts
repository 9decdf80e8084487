import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { planFrom } from '../vite.chunks';

// The build merges what only the console's start loads into one file (vite.chunks.ts). What
// matters is what it must not merge: files a logged-out screen loads, at its start or later.

const src = (path: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'src', path);

const chunk = (name: string, moduleIds: string[], imports: string[] = [], options: Partial<Rolldown.OutputChunk> = {}) =>
  ({
    type: 'chunk',
    name,
    fileName: `assets/${name}.js`,
    moduleIds,
    imports: imports.map((file) => `assets/${file}.js`),
    dynamicImports: [],
    isEntry: false,
    isDynamicEntry: false,
    facadeModuleId: null,
    ...options,
  }) as unknown as Rolldown.OutputChunk;

const dynamicImports = (target: Rolldown.OutputChunk, names: string[]) => {
  (target as { dynamicImports: string[] }).dynamicImports = names.map((name) => `assets/${name}.js`);
  return target;
};

const bundle = () => {
  const entry = dynamicImports(
    chunk('index', ['/work/index.html', src('main.tsx'), src('authProvider.ts')], ['react', 'login'], { isEntry: true, facadeModuleId: '/work/index.html' }),
    ['App', 'ConsoleUI', 'LoggedOutApp'],
  );
  const app = chunk('App', [src('App.tsx')], ['react', 'login', 'index', 'Chip', 'TextField', 'theme'], { isDynamicEntry: true, facadeModuleId: src('App.tsx') });
  const consoleUi = chunk('ConsoleUI', [src('ConsoleUI.tsx'), '/nm/ra-ui-materialui/Layout.js'], ['react', 'Chip', 'hooks'], { isDynamicEntry: true, facadeModuleId: src('ConsoleUI.tsx') });
  const loggedOutApp = dynamicImports(
    chunk('LoggedOutApp', [src('pages/auth/LoggedOutApp.tsx'), '/nm/wouter/index.js'], ['react', 'login', 'theme'], { isDynamicEntry: true, facadeModuleId: src('pages/auth/LoggedOutApp.tsx') }),
    ['RegistrationPage'],
  );
  const registration = chunk('RegistrationPage', [src('pages/auth/RegistrationPage.tsx')], ['react', 'login', 'TextField'], { isDynamicEntry: true, facadeModuleId: src('pages/auth/RegistrationPage.tsx') });
  return [
    entry,
    app,
    consoleUi,
    loggedOutApp,
    registration,
    chunk('react', ['/nm/react/index.js']),
    chunk('login', ['/nm/@mui/material/Button.js', src('pages/auth/LoginPage.tsx')], ['react']),
    chunk('theme', [src('theme.ts')], ['login']),
    chunk('Chip', ['/nm/@mui/material/Chip.js'], ['login']),
    chunk('hooks', [src('hooks.ts')], ['login']),
    chunk('TextField', ['/nm/@mui/material/TextField.js'], ['login']),
  ];
};

describe("the console's chunk plan", () => {
  const plan = planFrom(bundle());

  it("merges the console's start into one file: its own entries and the files only they load", () => {
    expect([...plan.console].sort()).toEqual(['/nm/@mui/material/Chip.js', '/nm/ra-ui-materialui/Layout.js', src('App.tsx'), src('ConsoleUI.tsx'), src('hooks.ts')].sort());
  });

  it('keeps what /login loads in its files, and puts what a later logged-out screen shares with the console apart', () => {
    expect(plan.kept.get(src('theme.ts'))).toBe('theme');
    expect(plan.kept.get('/nm/@mui/material/Button.js')).toBe('login');
    expect([...plan.consoleShared]).toEqual(['/nm/@mui/material/TextField.js']);
    // Neither the logged-out bundle nor its screens are part of the console's plan at all.
    for (const id of [src('pages/auth/LoggedOutApp.tsx'), '/nm/wouter/index.js', src('pages/auth/RegistrationPage.tsx')]) {
      expect(plan.console.has(id) || plan.consoleShared.has(id) || plan.kept.has(id)).toBe(false);
    }
  });

  it("leaves React to its own file and moves the entry file's modules, not the entry, into login", () => {
    expect(plan.console.has('/nm/react/index.js') || plan.kept.has('/nm/react/index.js')).toBe(false);
    expect([...plan.entry]).toEqual([src('authProvider.ts')]);
  });

  it('refuses a bundle whose console start it cannot find', () => {
    expect(() => planFrom(bundle().filter((item) => item.name !== 'ConsoleUI'))).toThrow(/console's start/);
  });
});
