import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { e2eRuntimeDir } from '../playwright.config';
import { api, approvedTeam, createUsers, inBatches, login, newAccount } from './support/admin';
import { checkPage, DESKTOP, expectNoHorizontalOverflow, expectNoOverlappingControls, PHONE } from './support/pageChecks';
import { screenshot } from './support/screens';
import type { TestUser } from './support/users';

// Phones and accessibility, for the platform-admin pages: every admin page (lists, show pages with each
// tab, filters open, rows checked with the bulk bar showing, a confirmation open) at desktop
// and phone sizes, checked by axe and for sideways scrolling (support/pageChecks.ts); the same
// pages in French for overflow and translation keys; and the keyboard paths to a row's page
// and to a bulk action. A few dozen accounts are enough: admin.spec.ts checks the scale.

/** More than a page of 25 people and of 25 pending requests, so that "Select all N matching" shows. */
const PEOPLE = 30;
const FIRSTNAMES = ['Ada', 'Barbara', 'Claude', 'Dennis', 'Edsger', 'Frances', 'Guido', 'Hedy', 'Ivan', 'John'];

interface Arranged {
  admin: TestUser;
  frenchAdmin: TestUser;
  owner: TestUser;
  ownerId: number;
  team: { id: number; name: string };
  workspace: { id: number; name: string };
  nodeName: string;
  /** Who asked for a new team (pending): /requests' Manage dialog then shows the form's details. */
  teamAsker: string;
}

let apiContext: APIRequestContext;
let arranged: Arranged;
let adminPage: Page;

const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

/** Text that reads as a translation key left untranslated ('resources.admin/users.name', 'app.menu'). */
const RAW_KEY = /^(?:ra|app|resources|admin[a-zA-Z_]*|team[a-zA-Z]*|requests|nodes|workspaces|dashboard)\.[\w/.-]+$/;

async function arrange(): Promise<Arranged> {
  const tag = Date.now() % 100000;
  const admin = newAccount('Margaret', 'Hamilton');
  const frenchAdmin = newAccount('Sophie', 'Germain');
  // A long name: the cards and cells must wrap or cut it, not widen the page.
  const owner = { ...newAccount('Maximiliane', 'Vandersteenhoven-Oppenheimer'), password: `quiet-harbour-lantern-${tag}-drifts` };
  const people = Array.from({ length: PEOPLE }, (_, index) => newAccount(FIRSTNAMES[index % FIRSTNAMES.length], `Person${String(index + 1).padStart(2, '0')}`));
  createUsers([{ ...admin, admin: true }, { ...frenchAdmin, admin: true }, owner, ...people]);

  const adminToken = await login(apiContext, admin);
  const ownerToken = await login(apiContext, owner);
  const shortname = `Pages Lab ${tag}`;
  const team = await approvedTeam(apiContext, { owner: ownerToken, admin: adminToken }, {
    fullname: `Responsive Pages Laboratory ${tag}`,
    shortname,
    url: 'https://pages.example.org',
    joining_reason: 'We check the admin pages on phones.',
  });
  await api(apiContext, 'POST', '/api/requests/workspaces', ownerToken, { label: 'Phones', name: 'phones', team_id: team.id });
  const detail = await api(apiContext, 'GET', `/api/tenants/${team.id}`, ownerToken);
  const workspace = detail.workspaces.find((item: { name: string }) => item.name === 'phones');
  // Everyone asks to join the team: more pending requests than a page of /requests.
  await inBatches(people, 4, async (person) => {
    const token = await login(apiContext, person);
    await api(apiContext, 'PATCH', '/api/requests/teams', token, { team_id: team.id, message: `${person.firstname} would like to join.` });
  });
  // One new team asked for and left pending, with the form's long answers: its Manage dialog
  // lists them beside their labels, which a phone must not squeeze to a letter per line.
  const asker = people[0];
  await api(apiContext, 'POST', '/api/requests/teams', await login(apiContext, asker), {
    fullname: `Distributed Intelligence at the Network Edge ${tag}`,
    shortname: `Edge Intelligence ${tag}`,
    url: 'https://distributed-intelligence.example.org/research/network-edge',
    joining_reason: 'A two-year research project on federated learning across heterogeneous edge devices.',
    affiliation: 'Université Polytechnique des Hauts-de-France',
    country: 'France',
    joining_category: 'Research',
  });
  const me = await api(apiContext, 'GET', '/user', ownerToken);
  const nodes = await api<{ name: string; node_id?: number | null }[]>(apiContext, 'GET', '/api/admin/nodes', adminToken);
  const clusterNode = nodes.find((node) => !node.node_id);
  expect(clusterNode, 'the sandbox cluster has a node').toBeTruthy();
  return {
    admin,
    frenchAdmin,
    owner,
    ownerId: me.id,
    team: { id: team.id, name: team.name },
    workspace,
    nodeName: clusterNode!.name,
    teamAsker: `${asker.firstname} ${asker.lastname}`,
  };
}

async function loggedIn(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel(/^(Email|E-mail|Adresse e-mail|Courriel)$/).fill(user.email);
  await page.getByLabel(/^(Password|Mot de passe)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Login|Se connecter|Connexion)$/ }).click();
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  return page;
}

test.beforeAll(async ({ baseURL, browser }) => {
  test.setTimeout(120_000);
  apiContext = await playwrightRequest.newContext({ baseURL });
  // Arranged once per server run: after a failure Playwright starts a new worker, which runs
  // beforeAll again (the runtime directory is wiped at each server start, support/serve.mjs).
  const stateFile = join(e2eRuntimeDir, 'pages-admin-spec.json');
  if (existsSync(stateFile)) arranged = JSON.parse(readFileSync(stateFile, 'utf8'));
  else {
    arranged = await arrange();
    writeFileSync(stateFile, JSON.stringify(arranged));
  }
  adminPage = await loggedIn(browser, arranged.admin);
});

test.afterAll(async () => {
  await adminPage?.context().close();
  await apiContext?.dispose();
});

/** Goes to `path` and waits until the page has loaded what it shows (no progress indicator left). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.locator('main [role="progressbar"]')).toHaveCount(0);
}

/** Each tab of the show page in turn, checked with its content showing. */
async function checkTabs(page: Page, name: string) {
  const tabs = page.getByRole('tab');
  const count = await tabs.count();
  expect(count, `${name} has tabs`).toBeGreaterThan(1);
  for (let index = 0; index < count; index += 1) {
    const tab = tabs.nth(index);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await checkPage(page, `${name}-tab${index + 1}`);
  }
  await tabs.first().click();
}

/**
 * Opens the list's filters: on phones a folded panel above the list; on desktop a panel beside
 * it, folded to a button below 1440 px (so that the table's columns fit). Folded again after.
 */
async function openFilters(page: Page, name: string) {
  const folded = page.getByRole('button', { name: 'Filters', exact: true });
  const show = page.getByRole('button', { name: 'Show filters' });
  if (await folded.isVisible()) {
    await folded.click();
    await expect(folded).toHaveAttribute('aria-expanded', 'true');
  } else if (await show.isVisible()) {
    await show.click();
    await expect(page.getByRole('button', { name: 'Hide filters' })).toBeVisible();
  } else {
    await expect(page.getByTestId('filter-sidebar').or(page.getByRole('complementary', { name: 'Filters' })).first()).toBeVisible();
  }
  await checkPage(page, `${name}-filters`);
  if (await folded.isVisible()) await folded.click();
  const hide = page.getByRole('button', { name: 'Hide filters' });
  if (await hide.isVisible()) await hide.click();
}

/**
 * A list's table shows whole beside the menu (the filter panel folded): no column scrolled out
 * of sight in its wrapper, no cell's text running past its cell. At 1280 px the dates, in the
 * last columns, were cut.
 */
async function expectTableFits(page: Page, name: string) {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    for (const wrapper of Array.from(document.querySelectorAll<HTMLElement>('main .RaDataTable-tableWrapper, main table'))) {
      if (wrapper.scrollWidth > wrapper.clientWidth + 1) found.push(`${wrapper.className.split(' ')[0] || wrapper.tagName} scrolls: ${wrapper.scrollWidth} > ${wrapper.clientWidth}`);
    }
    for (const cell of Array.from(document.querySelectorAll<HTMLElement>('main td, main th'))) {
      if (cell.scrollWidth > cell.clientWidth + 1) found.push(`cell "${(cell.textContent ?? '').trim().slice(0, 40)}" is cut: ${cell.scrollWidth} > ${cell.clientWidth}`);
    }
    // Nor squeezed to fit: a value a few letters wide reads a letter or two per line.
    for (const value of Array.from(document.querySelectorAll<HTMLElement>('main td dd'))) {
      const text = (value.textContent ?? '').trim();
      if (getComputedStyle(value).whiteSpace === 'nowrap') continue;
      if (text.length > 4 && value.getBoundingClientRect().width < 60) found.push(`"${text.slice(0, 40)}" is squeezed to ${Math.round(value.getBoundingClientRect().width)} px`);
    }
    return found;
  });
  expect(problems, `${name}: the table fits`).toEqual([]);
}

/** Checks the first row (or card); the bulk bar shows, and says one is selected. */
async function checkOneRow(page: Page, name: string) {
  await page.getByRole('checkbox', { name: 'Select this row' }).first().check();
  await expect(page.getByText('1 item selected')).toBeVisible();
  await checkPage(page, `${name}-selected`);
}

/** Checks the whole page, then every match: the "Select all N matching" button must be within reach. */
async function selectAllMatching(page: Page, name: string, matching: RegExp) {
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  const selectAll = page.getByRole('button', { name: matching });
  await expect(selectAll).toBeInViewport();
  await selectAll.click();
  await checkPage(page, `${name}-all-matching`);
}

async function unselect(page: Page) {
  await page.getByRole('button', { name: 'Unselect' }).click();
}

for (const [size, viewport] of SIZES) {
  test(`the admin lists at ${size} size: filters, checked rows, the bulk bar and its dialogs`, async () => {
    // Six lists and the request dialogs: over three minutes on a loaded machine.
    test.setTimeout(300_000);
    const page = adminPage;
    await page.setViewportSize(viewport);
    const at = (name: string) => `admin-${name}-${size}`;

    // Searched: in the full browser suite the same database also holds admin.spec's 100,000
    // seeded people, whose names sort before these.
    await open(page, `/admin/users?filter=${encodeURIComponent(JSON.stringify({ q: 'Person' }))}`);
    await expect(page.getByRole('link', { name: 'Ada Person01' })).toBeVisible();
    await checkPage(page, at('users'));
    await openFilters(page, at('users'));
    await checkOneRow(page, at('users'));
    await selectAllMatching(page, at('users'), /^Select all \d+ matching/);
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    const disable = page.getByRole('dialog');
    await expect(disable).toContainText(/Disable/);
    await checkPage(page, at('users-bulk-disable-dialog'));
    await disable.getByRole('button', { name: 'Cancel' }).click();
    await expect(disable).toBeHidden();
    await unselect(page);

    // Searched, as the users above: in the full browser suite the other specs' teams (long
    // names, many workspaces) are listed too, and whether the table fits would depend on them.
    await open(page, `/admin/teams?filter=${encodeURIComponent(JSON.stringify({ q: arranged.team.name }))}`);
    await expect(page.getByRole('link', { name: arranged.team.name })).toBeVisible();
    // Each team's first members with their role (its owner, whose long name is cut, not widening the table).
    const ownerName = `${arranged.owner.firstname} ${arranged.owner.lastname}`;
    const teamRow = size === 'desktop' ? page.getByRole('row').filter({ has: page.getByRole('link', { name: arranged.team.name }) }) : page.locator('main');
    // `li`: on phones the team's card is a listitem too.
    const ownerItem = teamRow.locator('li').filter({ has: page.getByRole('link', { name: ownerName }) });
    await expect(ownerItem).toBeVisible();
    await expect(ownerItem).toContainText('Owner');
    await checkPage(page, at('teams'));
    if (size === 'desktop') await expectTableFits(page, at('teams'));
    await openFilters(page, at('teams'));
    await checkOneRow(page, at('teams'));
    await unselect(page);

    await open(page, '/admin/workspaces');
    await expect(page.getByRole('link', { name: arranged.workspace.name }).first()).toBeVisible();
    await checkPage(page, at('workspaces'));
    if (size === 'desktop') await expectTableFits(page, at('workspaces'));
    await openFilters(page, at('workspaces'));
    await checkOneRow(page, at('workspaces'));
    await unselect(page);

    await open(page, '/admin/nodes');
    await expect(page.getByRole('link', { name: arranged.nodeName })).toBeVisible();
    await checkPage(page, at('nodes'));
    // Status, owner and when each node was last seen within sight: the addresses sit under
    // the name and the capacity and system info share one short column.
    if (size === 'desktop') await expectTableFits(page, at('nodes'));
    else await expect(page.getByRole('link', { name: arranged.nodeName }).locator('xpath=ancestor::*[contains(@class, "MuiCard-root")][1]')).toContainText(/Last seen:/);
    await openFilters(page, at('nodes'));
    await checkOneRow(page, at('nodes'));
    await unselect(page);

    await open(page, '/admin/activity');
    await checkPage(page, at('activity'));
    if (size === 'desktop') await expectTableFits(page, at('activity'));
    await openFilters(page, at('activity'));
    await checkOneRow(page, at('activity'));
    await unselect(page);

    // /requests as an admin: pending join requests, all of them at once, the bulk decision asked.
    await open(page, '/requests');
    await expect(page.getByText('would like to join.').first()).toBeVisible();
    await checkPage(page, at('requests'));
    // The new team's request: its details, label beside (or above) value, each value readable.
    await open(page, `/requests?filter=${encodeURIComponent(JSON.stringify({ status: 'Pending', type: 'CreateTeam' }))}`);
    await page.getByTitle(`Manage the request of ${arranged.teamAsker}`).first().click();
    const manage = page.getByRole('dialog', { name: 'Manage request' });
    const details = manage.getByLabel('What was asked');
    await expect(details).toContainText('federated learning');
    const cramped = await details.locator('dd').evaluateAll((values) =>
      values
        .map((value) => {
          const style = getComputedStyle(value);
          const lineHeight = parseFloat(style.lineHeight) || 20;
          const lines = Math.round(value.getBoundingClientRect().height / lineHeight);
          const text = (value.textContent ?? '').trim();
          // A value set a letter or two per line has about as many lines as letters.
          return { text: text.slice(0, 30), width: value.getBoundingClientRect().width, lines, letters: text.length };
        })
        .filter((value) => value.width < 120 || value.lines > Math.max(2, value.letters / 8)),
    );
    expect(cramped, 'the request details have room to read').toEqual([]);
    await checkPage(page, at('requests-manage-dialog'));
    await manage.getByRole('button', { name: 'Cancel' }).click();
    await expect(manage).toBeHidden();
    // The list remembers its filter: back to every pending request.
    await open(page, `/requests?filter=${encodeURIComponent(JSON.stringify({ status: 'Pending' }))}`);
    await expect(page.getByText('would like to join.').first()).toBeVisible();
    await checkOneRow(page, at('requests'));
    await selectAllMatching(page, at('requests'), /^Select all \d+ matching/);
    await page.getByRole('button', { name: 'Approve selected' }).click();
    const decide = page.getByRole('dialog');
    await expect(decide).toContainText(/Approve/);
    await checkPage(page, at('requests-bulk-dialog'));
    await decide.getByRole('button', { name: 'Cancel' }).click();
    await expect(decide).toBeHidden();
    await unselect(page);
  });

  test(`the admin show pages at ${size} size: every tab, and a confirmation open`, async () => {
    test.setTimeout(180_000);
    const page = adminPage;
    await page.setViewportSize(viewport);
    const at = (name: string) => `admin-${name}-${size}`;

    await open(page, `/admin/users/${arranged.ownerId}`);
    await expect(page.getByText(arranged.owner.email).first()).toBeVisible();
    await checkTabs(page, at('user'));
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(/Disabling|Disable/);
    await checkPage(page, at('user-disable-dialog'));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    await open(page, `/admin/teams/${arranged.team.id}`);
    await checkTabs(page, at('team'));
    await open(page, `/admin/workspaces/${arranged.workspace.id}`);
    await checkTabs(page, at('workspace'));
    await open(page, `/admin/nodes/${encodeURIComponent(arranged.nodeName)}`);
    await expect(page.getByText('Conditions').first()).toBeVisible();
    await checkPage(page, at('node'));

    // The platform overview: every card filled in (the numbers link to the lists above).
    await open(page, '/admin');
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Pending requests' }).getByRole('link', { name: /Join team/ })).toBeVisible();
    await checkPage(page, at('overview'));

    // The pages of allocations over time: the settings, what ends next, the usage policy.
    await open(page, '/admin/settings');
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
    await checkPage(page, at('settings'));
    await open(page, '/admin/lifecycle');
    await checkPage(page, at('lifecycle'));
    await open(page, '/admin/policy');
    await checkPage(page, at('policy'));
    await open(page, '/admin/usage');
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
    await checkPage(page, at('usage'));
  });
}

test('the admin pages in French at both sizes: nothing scrolls sideways, no translation key shows', async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await loggedIn(browser, arranged.frenchAdmin);
  // The sign-in may still be on its way when the page shows: wait for its session first.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authentication_token'))).not.toBeNull();
  // Through the page's own session, as the language menu does.
  await page.evaluate(async () => {
    await fetch('/user', {
      method: 'PATCH',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('authentication_token')}` },
      body: JSON.stringify({ locale: 'fr' }),
    });
  });
  const paths = [
    ['overview', '/admin'],
    ['users', '/admin/users'],
    ['user', `/admin/users/${arranged.ownerId}`],
    ['teams', '/admin/teams'],
    ['team', `/admin/teams/${arranged.team.id}`],
    ['workspaces', '/admin/workspaces'],
    ['workspace', `/admin/workspaces/${arranged.workspace.id}`],
    ['nodes', '/admin/nodes'],
    ['node', `/admin/nodes/${encodeURIComponent(arranged.nodeName)}`],
    ['activity', '/admin/activity'],
    ['requests', '/requests'],
    ['settings', '/admin/settings'],
    ['lifecycle', '/admin/lifecycle'],
    ['policy', '/admin/policy'],
    ['usage', '/admin/usage'],
  ] as const;
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    for (const [name, path] of paths) {
      await open(page, path);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await expectNoHorizontalOverflow(page, `${path} in French at ${size} size`);
      await expectNoOverlappingControls(page, `${path} in French at ${size} size`);
      const lines = (await page.locator('body').innerText()).split('\n').map((line) => line.trim()).filter(Boolean);
      const labels = await page.locator('[aria-label], [title], [placeholder]').evaluateAll((elements) =>
        elements.flatMap((element) => ['aria-label', 'title', 'placeholder'].map((attribute) => element.getAttribute(attribute) ?? '')),
      );
      expect([...lines, ...labels].filter((text) => RAW_KEY.test(text)), `translation keys on ${path} (${size})`).toEqual([]);
      await screenshot(page, `admin-${name}-${size}-fr`);
    }
  }
  await page.context().close();
});

/** The element that has the focus: its tag, accessible text and whether a focus ring is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return null;
    const style = getComputedStyle(element);
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || (style.boxShadow !== 'none' && style.boxShadow !== '');
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
      href: element.getAttribute('href'),
      ring,
    };
  });
}

/** Presses `key` until the focused element matches, at most `limit` times. */
async function tabTo(page: Page, matches: (element: NonNullable<Awaited<ReturnType<typeof focused>>>) => boolean, key = 'Tab', limit = 60) {
  const visited: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(key);
    const element = await focused(page);
    if (element && matches(element)) return element;
    visited.push(element ? `${element.tag} "${element.text.slice(0, 30)}"${element.href ? ` ${element.href}` : ''}` : 'nothing');
  }
  throw new Error(`nothing matching was reached with ${limit} presses of ${key}; focus went to:\n${visited.join('\n')}`);
}

for (const [size, viewport] of SIZES) {
  test(`keyboard at ${size} size: a row's link is reached with a visible focus and opens with Enter; a bulk action is reached`, async () => {
    const page = adminPage;
    await page.setViewportSize(viewport);
    const ownerName = `${arranged.owner.firstname} ${arranged.owner.lastname}`;
    await open(page, `/admin/users?filter=${encodeURIComponent(JSON.stringify({ q: arranged.owner.lastname }))}`);
    await expect(page.getByText(ownerName).first()).toBeVisible();
    await page.getByRole('textbox', { name: 'Search' }).focus();

    const link = await tabTo(page, (element) => element.tag === 'a' && element.href === `/admin/users/${arranged.ownerId}`);
    expect(link.ring, 'the focused row link shows a focus ring').toBe(true);
    await screenshot(page, `admin-keyboard-row-focus-${size}`);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/admin/users/${arranged.ownerId}$`));

    // Back on the list: check the row with the keyboard, then reach the bulk "Disable".
    await page.goBack();
    await expect(page.getByText(ownerName).first()).toBeVisible();
    await page.getByRole('textbox', { name: 'Search' }).focus();
    const checkbox = await tabTo(page, (element) => element.tag === 'input' && element.text === 'Select this row');
    expect(checkbox.ring || (await page.evaluate(() => document.activeElement?.parentElement?.matches('.Mui-focusVisible') ?? false)), 'the row checkbox shows its focus').toBe(true);
    await page.keyboard.press('Space');
    await expect(page.getByText('1 item selected')).toBeVisible();
    const disable = await tabTo(page, (element) => element.tag === 'button' && element.text === 'Disable', 'Shift+Tab');
    expect(disable.ring || (await page.evaluate(() => document.activeElement?.matches('.Mui-focusVisible') ?? false)), 'the bulk button shows its focus').toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    // The selection outlives the page (react-admin keeps it in its store): leave none behind.
    await unselect(page);
  });
}
