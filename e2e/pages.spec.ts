import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { api, approvedTeam, login, newAccount } from './support/admin';
import { linkIn, waitForMail } from './support/mail';
import { checkPage, DESKTOP, PHONE } from './support/pageChecks';
import { createUser, loggedInPage, type TestUser } from './support/users';

// Phones, accessibility and French: every page outside /admin, walked at desktop and phone sizes, in English with axe
// (no serious or critical violation) and in French (no translation key on screen), none of them
// scrolling sideways, each screenshot to e2e/artifacts/screens/pages-*.png to be looked at.
// The data is arranged through the API, so that each page shows what it shows in real use: a
// team with a workspace running a pod, a node, a pending request to decide, tokens.
// Not serial: a failing test does not hide the others' results (a new worker arranges the data again).
test.describe.configure({ mode: 'default' });

const SIZES = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const;

const kubectlPath = process.env.KUBECTL ?? '/usr/bin/kubectl';
const tag = Date.now() % 100000;
const teamShortname = `Pages Lab ${tag}`;
const teamName = teamShortname.toLowerCase().replace(/\W+/g, '');

let apiContext: APIRequestContext;
let owner: TestUser;
let newcomer: TestUser;
let team: { id: number; name: string; fullname: string };
let workspaceId: number;
let nodeId: number;
let resetLink: string;
let invitationLink: string;
/** Asks to join the team: their request waits for the owner's decision on /requests. */
const askerName = 'Claude Shannon';

/** A page of the console: where it is and what shows it has rendered (data, not words, so that it holds in French). */
interface ConsolePage {
  name: string;
  path: () => string;
  ready: (page: Page) => Promise<void>;
  /** What to do once there, to show a dialog or a form that has no URL of its own. */
  open?: (page: Page) => Promise<void>;
  /** What to undo once checked, so that the next page starts clean. */
  leave?: (page: Page) => Promise<void>;
}

const visible = (text: string | RegExp) => async (page: Page) => {
  await expect(page.getByText(text).first()).toBeVisible();
};
/** A heading in the page's content (the app bar's title is a heading too, and shows early). */
const heading = async (page: Page) => {
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
};

const CONSOLE_PAGES: ConsolePage[] = [
  { name: 'home', path: () => '/', ready: visible(teamName) },
  {
    // The sidebar: always open on a desktop, a drawer to open on a phone.
    name: 'sidebar',
    path: () => '/',
    ready: visible(teamName),
    open: async (page) => {
      if ((page.viewportSize()?.width ?? 0) >= 600) return;
      await page.getByRole('button', { name: /^(Open menu|Ouvrir le menu)$/ }).click();
      await expect(page.getByRole('menu').getByRole('menuitem', { name: teamName, exact: true })).toBeVisible();
    },
    // The drawer's open state is remembered: closed again, it does not cover the next pages.
    leave: async (page) => {
      if ((page.viewportSize()?.width ?? 0) >= 600) return;
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
    },
  },
  { name: 'profile', path: () => '/profile', ready: visible(/owner-token/) },
  { name: 'tokens', path: () => '/tokens', ready: visible('owner-token') },
  {
    name: 'token-create-dialog',
    path: () => '/tokens',
    ready: visible('owner-token'),
    open: async (page) => {
      await page.getByRole('button', { name: /^(Create|Créer)$/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'token-create', path: () => '/tokens/create', ready: heading },
  { name: 'requests', path: () => '/requests', ready: visible(askerName) },
  {
    name: 'request-manage',
    path: () => '/requests',
    ready: visible(askerName),
    open: async (page) => {
      await page.getByRole('button', { name: /^(Manage|Gérer)/ }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'nodes', path: () => '/nodes', ready: visible('Raspberry Pi') },
  { name: 'node-create', path: () => '/nodes/create', ready: heading },
  { name: 'node', path: () => `/nodes/${nodeId}`, ready: heading },
  { name: 'team', path: () => `/teams/${team.id}`, ready: (page) => visible(team.fullname)(page) },
  { name: 'workspace', path: () => `/workspaces/${workspaceId}`, ready: visible('hello') },
  {
    name: 'workspace-create',
    path: () => `/teams/${team.id}`,
    ready: (page) => visible(team.fullname)(page),
    open: async (page) => {
      await page.getByRole('button', { name: /^(Create workspace|Créer un espace de travail)$/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'team-registration', path: () => '/team/registration', ready: heading },
  { name: 'team-join', path: () => '/team/join', ready: heading },
  { name: 'not-found', path: () => '/no/such/screen', ready: heading },
];

/** A pod in the workspace's namespace, started with kubectl as a member would (see cluster.spec.ts). */
async function startPod(session: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-pages-'));
  const file = join(dir, 'workspace.kubeconfig');
  // The namespace is made by the reconciler a moment after the workspace: retry until it is there.
  await expect(async () => {
    const answer = await api<{ kubeconfig: string }>(apiContext, 'POST', `/api/subnamespaces/${workspaceId}/kubeconfig`, session);
    writeFileSync(file, answer.kubeconfig);
  }).toPass({ timeout: 30_000 });
  execFileSync(kubectlPath, ['--kubeconfig', file, 'run', 'hello', '--image=busybox:1.36'], { stdio: 'pipe' });
}

test.beforeAll(async ({ baseURL }) => {
  apiContext = await playwrightRequest.newContext({ baseURL });
  const admin = createUser('Edsger', 'Dijkstra', { admin: true });
  owner = createUser('Hedy', 'Lamarr');
  const asker = createUser(...(askerName.split(' ') as [string, string]));
  newcomer = newAccount('Annie', 'Easley');
  const adminSession = await login(apiContext, admin);
  const ownerSession = await login(apiContext, owner);

  // A team owned by `owner`, with a workspace, a node and an access token of theirs.
  team = await approvedTeam(apiContext, { owner: ownerSession, admin: adminSession }, {
    fullname: 'Pages Laboratory',
    shortname: teamShortname,
    url: 'https://pages.example.org',
    joining_reason: 'We check every page.',
  });
  await api(apiContext, 'POST', '/api/requests/workspaces', ownerSession, { label: 'Vision', name: 'vision', team_id: team.id });
  const me = await api<{ workspaces: { id: number; name: string }[] }>(apiContext, 'GET', '/user', ownerSession);
  workspaceId = me.workspaces.find((workspace) => workspace.name === 'vision')!.id;
  const node = await api<{ id: number }>(apiContext, 'POST', '/api/nodes', ownerSession, { type: 'raspberry-pi', hostname: `pages-pi-${tag}`, notes: 'Shelf 2' });
  nodeId = node.id;
  await api(apiContext, 'POST', '/api/tokens', ownerSession, { name: 'owner-token' });

  // Requests for the owner to decide: someone asks to join the team (the Manage action).
  const askerSession = await login(apiContext, asker);
  await api(apiContext, 'PATCH', '/api/requests/teams', askerSession, { team_id: team.id, message: 'Let me in, please.' });

  // Links of the logged-out pages: a password reset, an invitation.
  const askedAt = new Date(Date.now() - 1000);
  await api(apiContext, 'POST', '/password/link', null, { email: owner.email });
  resetLink = linkIn(await waitForMail(owner.email, /reset/i, askedAt), '/password/reset/');
  const invited = `invited.${tag}@example.org`;
  await api(apiContext, 'POST', `/api/tenants/${team.id}/invitations`, ownerSession, { email: invited, role: 'member' });
  invitationLink = linkIn(await waitForMail(invited, /invites you/), '/invitations/');

  // A newcomer registers and is still to verify their address (the onboarding pages).
  await api(apiContext, 'POST', '/register', null, {
    firstname: newcomer.firstname,
    lastname: newcomer.lastname,
    email: newcomer.email,
    password: newcomer.password,
    password_confirmation: newcomer.password,
  });

  await startPod(ownerSession);
});

test.afterAll(async () => {
  await apiContext?.dispose();
});

/**
 * Visits each console page at the page's current size and checks it; a page that fails does not
 * stop the walk, so that one run tells every page's failures at once.
 */
async function walkConsole(page: Page, label: string, options: { axe: boolean; french?: boolean }): Promise<void> {
  const failures: string[] = [];
  for (const consolePage of CONSOLE_PAGES) {
    try {
      await page.goto(consolePage.path());
      await consolePage.ready(page);
      await consolePage.open?.(page);
      await checkPage(page, `pages-${consolePage.name}-${label}`, { axe: options.axe });
      if (options.french) await expectNoTranslationKeys(page, `${consolePage.name} (${label})`);
      await consolePage.leave?.(page);
    } catch (error) {
      failures.push(`${consolePage.name}: ${(error as Error).message}`);
    }
  }
  expect(failures, `pages failing at ${label}`).toEqual([]);
}

/** The catalogues' top-level sections (src/i18n/en.ts): a key on screen starts with one of them. */
const CATALOGUE_SECTIONS = [
  'app', 'auth', 'onboarding', 'home', 'oidc', 'identities', 'invitations', 'roles', 'profile', 'requests', 'teams',
  'workspaces', 'nodes', 'adminWorkspaces', 'adminUsers', 'teamAdmin', 'adminBulk', 'admin_filters', 'resources', 'ra',
];
const TRANSLATION_KEY = new RegExp(`(?<![\\w./@-])(?:${CATALOGUE_SECTIONS.join('|')})\\.[a-z_]+(?:\\.[a-z_]+)*(?![\\w/-])`, 'g');

/** Fails when a translation key ('resources.tokens.name', 'app.menu.home') shows instead of words, in text or labels. */
async function expectNoTranslationKeys(page: Page, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  const labels = await page.locator('[aria-label]').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? ''));
  const keys = [text, ...labels].flatMap((part) => part.match(TRANSLATION_KEY) ?? []);
  expect(keys, `translation keys on ${where}`).toEqual([]);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  return context.newPage();
}

test('onboarding: the verification step, the verify-email page and the policy step', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/');
  await page.getByLabel('Email').fill(newcomer.email);
  await page.getByLabel('Password', { exact: true }).fill(newcomer.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Verification').first()).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await checkPage(page, `pages-onboarding-verification-${size.name}`);
  }

  const askedAt = new Date(Date.now() - 1000);
  await page.getByRole('button', { name: 'Resend the link' }).click();
  const verifyLink = linkIn(await waitForMail(newcomer.email, /verif/i, askedAt), '/email/verify/');
  await page.goto(verifyLink);
  await expect(page.getByText(/email address is verified/i)).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await checkPage(page, `pages-verify-email-${size.name}`);
  }

  await page.goto('/');
  await expect(page.getByText(/acceptable use policy/i).first()).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await checkPage(page, `pages-onboarding-terms-${size.name}`);
  }
  await page.context().close();
});

test('logged-out pages in English and French: login, registration, forgotten password, reset and invitation links', async ({ browser }) => {
  const page = await newPage(browser);
  // Each page's main button (or field), in English then in French.
  const pages = [
    { name: 'login', url: '/login', ready: /^(Login|Se connecter)$/ },
    { name: 'registration', url: '/registration', ready: /^(Register|S’inscrire)$/ },
    { name: 'password', url: '/password', ready: /^(Send reset link|Envoyer le lien)/ },
    { name: 'password-reset', url: resetLink, ready: /^(Update password|Mettre à jour le mot de passe)$/ },
    { name: 'invitation', url: invitationLink, ready: /^(Log in and join|Se connecter et rejoindre)/ },
  ];
  const walk = async (french: boolean) => {
    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      for (const loggedOut of pages) {
        await page.goto(loggedOut.url);
        await expect(page.getByRole('button', { name: loggedOut.ready })).toBeVisible();
        await checkPage(page, `pages-${loggedOut.name}-${french ? 'fr-' : ''}${size.name}`, { axe: !french });
        if (french) await expectNoTranslationKeys(page, `${loggedOut.name} (fr, ${size.name})`);
      }
    }
  };
  await walk(false);
  await page.goto('/login');
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await walk(true);
  await page.context().close();
});

for (const size of SIZES) {
  test(`console pages at ${size.name} size, in English, with axe`, async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await loggedInPage(browser, owner);
    await page.setViewportSize(size.viewport);
    await walkConsole(page, size.name, { axe: true });
    await page.context().close();
  });
}

test('console pages in French at both sizes: no sideways scroll, no translation key', async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await loggedInPage(browser, owner);
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await walkConsole(page, `fr-${size.name}`, { axe: false, french: true });
  }
  // Back to English for the other tests of the account.
  await page.getByRole('button', { name: /^Langue/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.context().close();
});

test('keyboard on a phone: Tab reaches the token Create button, shows focus, Enter opens the form', async ({ browser }) => {
  const page = await loggedInPage(browser, owner);
  await page.setViewportSize(PHONE);
  await page.goto('/tokens');
  await expect(page.getByText('owner-token')).toBeVisible();
  const create = page.getByRole('button', { name: 'Create', exact: true });
  await expect(create).toBeVisible();
  await tabTo(page, create);
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Create an access token' })).toBeVisible();
  await page.context().close();
});

test('keyboard: a list row that links somewhere is reached with Tab and opened with Enter', async ({ browser }) => {
  const page = await loggedInPage(browser, owner);
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto('/nodes');
    // The node has no name until installed: its row is found by where it leads.
    const row = page.locator(`a[href="/nodes/${nodeId}"]`).first();
    await expect(row).toBeVisible();
    await tabTo(page, row);
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`));
  }
  await page.context().close();
});

/** Presses Tab until `target` has the focus (at most 60 times), as a keyboard user would. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  for (let presses = 0; presses < 60; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('Tab never reached the element');
}

/** The focused element shows it with a solid outline of at least 2 px (theme: MuiButtonBase). */
async function expectVisibleFocus(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return {
      tag: element.tagName,
      focusVisible: element.matches(':focus-visible'),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });
  expect(focus.focusVisible, `the focused ${focus.tag} matches :focus-visible`).toBe(true);
  expect(focus.outline, `the focused ${focus.tag} shows its focus`).toMatch(/^(solid|auto) ([2-9]|\d{2,})(\.\d+)?px$/);
}
