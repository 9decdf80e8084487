import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createUser, loggedInPage } from './support/users';

// Each console page's code is a chunk of its own, loaded when the page is first opened: the
// home loads none of them, and opening a page loads its own and no other page's. The pages are
// the console's lazy screens (lazyNamed(() => import(…), 'Name') in ConsoleUI.tsx and the
// resources' index.ts files); each builds into Name-<hash>.js.

const SRC = join(process.cwd(), 'src');
const lazySources = [join(SRC, 'ConsoleUI.tsx'), ...(readdirSync(join(SRC, 'resources'), { recursive: true }) as string[]).filter((file) => /(^|\/)index\.tsx?$/.test(file)).map((file) => join(SRC, 'resources', file))];
const PAGE_CHUNKS = [...new Set(lazySources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/lazyNamed\(\(\) => import\('[^']+'\), '(\w+)'\)/g)].map((match) => match[1]!)))];

/** The page chunk a script URL is, if it is one. */
const pageChunkOf = (url: string) => PAGE_CHUNKS.find((name) => new RegExp(`/assets/${name}-[\\w-]{8}\\.js$`).test(url));

/** Every script the page loads from now on. */
const scriptsLoaded = (page: Page): string[] => {
  const urls: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) urls.push(response.url());
  });
  return urls;
};

/** Waits until no script has arrived for a while: a page's chunk and what it imports. */
const settled = async (urls: string[]) => {
  let count = -1;
  while (count !== urls.length) {
    count = urls.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
};

/** Goes to `path` as a link in the console does: the router, no reload. */
const openInConsole = (page: Page, path: string) =>
  page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

const PAGES: [path: string, chunk: string, heading: string | RegExp][] = [
  ['/tokens', 'TokenList', 'Tokens'],
  ['/tokens/create', 'TokenCreate', /token/i],
  ['/nodes', 'NodeList', 'Nodes'],
  ['/nodes/create', 'NodeCreate', /node/i],
  ['/requests', 'RequestList', 'Requests'],
  ['/profile', 'ProfilePage', 'Profile'],
  ['/team/registration', 'TeamRegistrationPage', /team/i],
  ['/team/join', 'TeamJoinPage', /team/i],
  ['/admin', 'AdminDashboardPage', 'Overview'],
  ['/admin/teams', 'AdminTeamList', 'Teams'],
  ['/admin/workspaces', 'AdminWorkspaceList', 'Workspaces'],
  ['/admin/users', 'AdminUserList', 'Users'],
  ['/admin/nodes', 'AdminNodeList', 'Nodes'],
  ['/admin/activity', 'AdminActivityList', 'Activity'],
  ['/admin/usage', 'AdminUsagePage', /usage/i],
  ['/admin/policy', 'AdminPolicyPage', /policy/i],
  ['/admin/lifecycle', 'WhatEndsNextPage', /end/i],
  ['/admin/settings', 'AdminSettingsPage', /setting/i],
];

test('the home loads no page’s code, and each page loads its own and no other’s', async ({ browser }) => {
  expect(PAGE_CHUNKS.length).toBeGreaterThan(20);
  for (const [, chunk] of PAGES) expect(PAGE_CHUNKS).toContain(chunk);

  const page = await loggedInPage(browser, createUser('Grace', 'Chunks', { admin: true }));
  const urls = scriptsLoaded(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your nodes' })).toBeVisible();
  await settled(urls);
  expect(urls.length).toBeGreaterThan(5);
  expect(urls.map(pageChunkOf).filter(Boolean), 'page chunks the home loaded').toEqual([]);

  for (const [path, chunk, heading] of PAGES) {
    const before = urls.length;
    await openInConsole(page, path);
    await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
    await settled(urls);
    const pageChunks = urls.slice(before).map(pageChunkOf).filter(Boolean);
    expect(pageChunks, `page chunks loaded by ${path}`).toEqual([chunk]);
  }
});

// The console's start comes in a few files, not one per set of importers (vite.chunks.ts): a
// phone fetches six files at a time over HTTP/1.1, and each round waits for a round trip. The
// files a logged-out screen loads stay out of it.
const CONSOLE_START = /\/assets\/console-[\w-]{8}\.js$/;
const REALTIME = /\/assets\/(realtime|echo)-[\w-]{8}\.js$/;
/** The home's files: index, the bundler's runtime, React, login, theme, CssBaseline, console-shared, console. */
const HOME_FILES_AT_MOST = 8;

test('the console starts in a few files, and the logged-out screens load none of the console’s own', async ({ browser }) => {
  const visitor = await browser.newPage();
  const visitorUrls = scriptsLoaded(visitor);
  for (const [path, heading] of [
    ['/login', 'Log in'],
    ['/registration', 'Create an account'],
    ['/password', /password/i],
  ] as const) {
    await visitor.goto(path);
    await expect(visitor.getByRole('heading', { name: heading }).first()).toBeVisible();
    await settled(visitorUrls);
  }
  expect(visitorUrls.length).toBeGreaterThan(3);
  expect(visitorUrls.filter((url) => CONSOLE_START.test(url)), 'the console’s start loaded by a logged-out screen').toEqual([]);
  await visitor.close();

  const page = await loggedInPage(browser, createUser('Grace', 'Files'));
  const urls = scriptsLoaded(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your nodes' })).toBeVisible();
  await settled(urls);
  expect(urls.filter((url) => CONSOLE_START.test(url))).toHaveLength(1);
  const files = urls.filter((url) => !REALTIME.test(url));
  expect(files.length, `the home's files: ${files.map((url) => url.replace(/.*\//, '')).join(' ')}`).toBeLessThanOrEqual(HOME_FILES_AT_MOST);
});
