import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { e2eRuntimeDir } from '../playwright.config';
import { api, approvedTeam, createUsers, inBatches, login, newAccount, seed, type SeedRun } from './support/admin';
import { screenshot } from './support/screens';
import { loggedInPage, type TestUser } from './support/users';

// Admin at scale in the browser: platform admins act in bulk on a testbed of 100,000 people. The
// database of the server under test is seeded through the CLI first; the accounts that act
// (an admin, a team owner, 51 people asking to join the owner's team) are made with the
// CLI's user:create. The admin selects all 51 join requests matching the filters on /requests
// and approves them with one message (the owner denied one before, so the per-item summary has
// something to say); the owner promotes one new member and removes another; the admin changes the quota of the team's
// workspace and the cluster follows; the admin exports the whole users list as CSV; last, the
// admin finds the owner by email among 100,000 people and disables the account while the
// owner's console is open, which must log that console out.
//
// Unlike the other specs, the tests are not `serial`: each arranges through the API what it
// needs from the ones before, so that one failing (a product bug) does not hide what the
// others find. Playwright starts a fresh worker after a failure and runs beforeAll again; the
// seeded data and accounts are made once per server run and remembered in the runtime
// directory (wiped at each server start, support/serve.mjs).

const SEEDED_USERS = 100_000;
// Teams and activity barely change the seed's time (the 100,000 users are what takes it);
// a few teams put team names in the users list, a little activity fills the activity lists.
const SEEDED_TEAMS = 10;
const SEEDED_ACTIVITY = 100;
const REQUESTERS = 51;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const kubectlPath = process.env.KUBECTL ?? '/usr/bin/kubectl';
const FIRSTNAMES = ['Ada', 'Barbara', 'Claude', 'Dennis', 'Edsger', 'Frances', 'Guido', 'Hedy', 'Ivan', 'John', 'Ken', 'Lynn', 'Mary'];

interface Team {
  id: number;
  name: string;
  fullname: string;
}

/** What beforeAll makes once per server run. */
interface Arranged {
  seed: SeedRun;
  admin: TestUser;
  owner: TestUser;
  requesters: TestUser[];
  accounts: number;
  team: Team;
  workspace: { id: number; name: string; namespace: string };
}

const stateFile = join(e2eRuntimeDir, 'admin-spec.json');
const screensDir = join(process.cwd(), 'e2e', 'artifacts', 'screens');
let arranged: Arranged;
let apiContext: APIRequestContext;
let adminToken: string;
let ownerToken: string;
const pages: Record<string, Page> = {};

const fullName = (user: TestUser) => `${user.firstname} ${user.lastname}`;

/**
 * Takes the same screen at desktop size (the whole page, unless `fullPage` is false: dialogs)
 * and at phone size (what the phone shows first); the page is left at desktop size.
 */
async function screens(page: Page, name: string, { fullPage = true } = {}) {
  await page.setViewportSize(DESKTOP);
  // From the top: a page scrolled down puts the fixed app bar and sidebar mid-page in a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  if (fullPage) await screenshot(page, `${name}-desktop`);
  else await page.screenshot({ path: join(screensDir, `${name}-desktop.png`) });
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  // Below the sm breakpoint some screens switch to other components: let them settle.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(screensDir, `${name}-phone.png`) });
  await page.setViewportSize(DESKTOP);
}

/**
 * Clicks `target`; first checks, softly, that a pointer can reach it (nothing covers it). When
 * something does (a product bug, reported as this test's failure), the click event is sent to
 * the control directly so that the rest of the flow is checked too.
 */
async function clickOrReport(target: Locator, what: string) {
  const problem = await target.click({ trial: true, timeout: 5_000 }).then(
    () => null,
    (error: Error) => error.message.split('\n').find((line) => /intercepts pointer events/.test(line))?.trim() ?? error.message,
  );
  expect.soft(problem, `${what} can be clicked`).toBeNull();
  if (problem === null) await target.click();
  else await target.dispatchEvent('click');
}

async function adminPage(browser: Browser): Promise<Page> {
  pages.admin ??= await loggedInPage(browser, arranged.admin);
  return pages.admin;
}

/** The owner's kubeconfig for the workspace, once the reconciler has made its namespace. */
async function ownerKubeconfig(): Promise<string> {
  const file = join(e2eRuntimeDir, 'owner.kubeconfig');
  await expect
    .poll(
      async () => {
        const response = await apiContext.post(`/api/subnamespaces/${arranged.workspace.id}/kubeconfig`, {
          headers: { Authorization: `Bearer ${ownerToken}`, Accept: 'application/json' },
        });
        if (response.status() === 201) writeFileSync(file, (await response.json()).kubeconfig);
        return response.status();
      },
      { message: 'the workspace namespace is ready', timeout: 30_000 },
    )
    .toBe(201);
  return file;
}

async function arrange(): Promise<Arranged> {
  const tag = Date.now() % 100000;
  // Seeded once per server run, even if what follows fails and a new worker arranges again.
  const seedFile = join(e2eRuntimeDir, 'admin-spec-seed.json');
  let seedRun: SeedRun;
  if (existsSync(seedFile)) seedRun = JSON.parse(readFileSync(seedFile, 'utf8'));
  else {
    seedRun = seed({ users: SEEDED_USERS, teams: SEEDED_TEAMS, activity: SEEDED_ACTIVITY });
    writeFileSync(seedFile, JSON.stringify(seedRun));
    console.log(`seed: ${seedRun.seconds.toFixed(1)} s wall clock\n${seedRun.output}`);
  }

  const admin = newAccount('Margaret', 'Hamilton');
  const owner = newAccount('Grace', 'Hopper');
  const requesters = Array.from({ length: REQUESTERS }, (_, index) =>
    newAccount(FIRSTNAMES[index % FIRSTNAMES.length], `Joiner${String(index + 1).padStart(2, '0')}`),
  );
  const started = Date.now();
  createUsers([{ ...admin, admin: true }, owner, ...requesters]);
  console.log(`${2 + REQUESTERS} accounts created in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const adminSession = await login(apiContext, admin);
  const ownerSession = await login(apiContext, owner);
  // The owner's team: asked for by the owner, approved by the admin; one workspace in it,
  // created at once by its owner.
  const shortname = `Bulk Lab ${tag}`;
  const team: Team = await approvedTeam(apiContext, { owner: ownerSession, admin: adminSession }, {
    fullname: `Bulk Decisions Laboratory ${tag}`,
    shortname,
    url: 'https://bulk.example.org',
    joining_reason: 'We test the admin console at scale.',
  });
  const created = await api(apiContext, 'POST', '/api/requests/workspaces', ownerSession, { label: 'Quota', name: 'quota', team_id: team.id });
  expect(created.status).toBe('Approved');
  const detail = await api(apiContext, 'GET', `/api/tenants/${team.id}`, ownerSession);
  const workspace = detail.workspaces.find((item: { name: string }) => item.name === 'quota');
  expect(workspace).toBeTruthy();

  // Two teams with long names for the admin (platform admins get theirs at once): a row of the
  // users list with several long team names, to see whether the Teams column holds them.
  for (const words of ['Distributed Edge Systems Laboratory', 'Sensor Networks Teaching Programme']) {
    await api(apiContext, 'POST', '/api/requests/teams', adminSession, {
      fullname: `${words} ${tag}`,
      shortname: `${words} ${tag}`.slice(0, 100),
      affiliation: 'Testbed operators',
      country: 'Norway',
      url: 'https://ops.example.org',
      joining_reason: 'To run the platform.',
      joining_category: 'Other',
    });
  }

  return { seed: seedRun, admin, owner, requesters, accounts: 2 + REQUESTERS, team, workspace };
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  apiContext = await playwrightRequest.newContext({ baseURL });
  if (existsSync(stateFile)) arranged = JSON.parse(readFileSync(stateFile, 'utf8'));
  else {
    arranged = await arrange();
    writeFileSync(stateFile, JSON.stringify(arranged));
  }
  test.info().annotations.push({ type: 'seed', description: `${arranged.seed.seconds.toFixed(1)} s: ${arranged.seed.output.split('\n').at(-1)}` });
  adminToken = await login(apiContext, arranged.admin);
  ownerToken = await login(apiContext, arranged.owner);
});

test.afterAll(async () => {
  for (const page of Object.values(pages)) await page.context().close();
  await apiContext?.dispose();
});

test('the admin approves 50 join requests at once with one message, and sees what happened to each', async ({ browser }) => {
  test.setTimeout(120_000);
  const { team, requesters } = arranged;
  // 51 people ask to join the team through the API, as the console's /team/join does; the
  // owner, who may decide them too, denies the last one on their own.
  const asked = await inBatches(requesters, 4, async (requester) => {
    const token = await login(apiContext, requester);
    return api<{ id: number; status: string }>(apiContext, 'PATCH', '/api/requests/teams', token, {
      team_id: team.id,
      message: `${requester.firstname} would like to join.`,
    });
  });
  expect(asked.every((request) => request.status === 'Pending')).toBe(true);
  const denied = asked[asked.length - 1];
  await api(apiContext, 'PATCH', `/api/requests/${denied.id}`, ownerToken, { action: 'deny', message: 'Not this term.' });

  // The admin lists the team's join requests, whatever their status: 51, on three pages.
  const page = await adminPage(browser);
  await page.goto('/requests');
  const table = page.getByRole('table', { name: 'Requests' });
  await page.getByPlaceholder('Search by requester, email or name').fill(team.name);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Join team' }).click();
  await page.getByRole('combobox', { name: 'Status' }).click();
  // (The empty choice is labelled 'Clear value' for assistive technology, not by its text.)
  await page.getByRole('option').filter({ hasText: 'Any status' }).click();
  // The search applies after a pause; until then the list shows the same count without it.
  await expect
    .poll(() => JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}'), { message: 'the filters are applied' })
    .toEqual({ q: team.name, type: 'JoinTeam' });
  await expect(page.getByText(`1-25 of ${REQUESTERS}`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Joiner' })).toHaveCount(25);
  await screens(page, '60-requests');

  // The page's pending rows (the denied one cannot be checked), then every request matching the filters.
  await table.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByText('24 items selected')).toBeVisible();
  await clickOrReport(page.getByRole('button', { name: `Select all ${REQUESTERS} matching` }), "The bulk toolbar's 'Select all 51 matching'");
  await expect(page.getByText(`All ${REQUESTERS} matching requests are selected`)).toBeVisible();
  // Desktop and viewport only: below sm the list shows cards, and the table's toolbar, which
  // holds the 'all matching' state, unmounts (a full-page shot after a resize flickers it too).
  await page.screenshot({ path: join(screensDir, '60b-requests-all-selected-desktop.png') });

  // The bulk call (not its dry run) waits until the progress has been seen: it would be over too soon.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/requests/bulk', async (route) => {
    if (!route.request().postDataJSON()?.dry_run) await released;
    await route.continue();
  });

  // The server's dry run says what will happen before anything is decided.
  await expect(page.getByText(`All ${REQUESTERS} matching requests are selected`)).toBeVisible();
  await clickOrReport(page.getByRole('button', { name: 'Approve selected' }), "The bulk toolbar's 'Approve selected'");
  const dialog = page.getByRole('dialog', { name: `Approve all ${REQUESTERS} matching requests?` });
  await expect(dialog).toContainText('The server decides every request that matches the filters, not only this page');
  await expect(dialog).toContainText('1 of them will not be decided: 1 already decided.');
  const message = `Welcome to the lab, ${Date.now()}.`;
  await dialog.getByLabel('Message').fill(message);
  await page.screenshot({ path: join(screensDir, '61-requests-bulk-confirm-desktop.png') });
  await dialog.getByRole('button', { name: 'Approve all' }).click();

  const result = page.getByRole('dialog', { name: 'Result' });
  await expect(dialog.getByRole('status')).toContainText(`Deciding ${REQUESTERS - 1} requests…`);
  await expect(dialog.getByRole('progressbar', { name: 'Progress' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
  await page.screenshot({ path: join(screensDir, '62-requests-bulk-progress-desktop.png') });
  release();

  // The totals, and each request not decided with the server's reason.
  await expect(result.getByRole('status')).toContainText(
    `${REQUESTERS - 1} requests approved. 1 was already decided.`,
    { timeout: 30_000 },
  );
  const failures = result.getByRole('list', { name: 'Not done' }).getByRole('listitem');
  await expect(failures).toHaveCount(1);
  await expect(failures).toContainText(`#${denied.id} (${fullName(requesters[requesters.length - 1])})`);
  await expect(failures).toContainText('This request has already been decided.');
  await screens(page, '63-requests-bulk-result', { fullPage: false });
  await page.unroute('**/api/requests/bulk');
  await result.getByRole('button', { name: 'Close' }).click();
  await expect(result).toBeHidden();

  // 50 are Approved with the message; the other stays Denied with the owner's.
  const decided = await api(apiContext, 'GET', `/api/requests?filter[team_id]=${team.id}&filter[type]=JoinTeam&page=1&per_page=100`, adminToken);
  const byId = new Map<number, { status: string; decision_message: string | null }>(decided.data.map((request: { id: number }) => [request.id, request]));
  for (const request of asked.slice(0, -1)) expect(byId.get(request.id)).toMatchObject({ status: 'Approved', decision_message: message });
  expect(byId.get(denied.id)).toMatchObject({ status: 'Denied', decision_message: 'Not this term.' });

  // The list says so too.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Approved' }).click();
  await expect(page.getByText(`1-25 of ${REQUESTERS - 1}`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Joiner' }).filter({ hasText: 'Approved' })).toHaveCount(25);
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Pending' }).click();
  await expect(page.getByText('No requests match these filters.')).toBeVisible();
  await screens(page, '64-requests-none-pending');
});

/** Makes `user` a member of the team if an earlier test did not (their request approved by the owner). */
async function ensureMember(user: TestUser) {
  const { team } = arranged;
  const detail = await api(apiContext, 'GET', `/api/tenants/${team.id}`, ownerToken);
  if (detail.users.some((member: { email: string }) => member.email === user.email)) return;
  const pending = await api(apiContext, 'GET', `/api/requests?filter[team_id]=${team.id}&filter[status]=Pending&q=${encodeURIComponent(user.email)}`, ownerToken);
  const request = pending[0] ?? (await api(apiContext, 'PATCH', '/api/requests/teams', await login(apiContext, user), { team_id: team.id }));
  await api(apiContext, 'PATCH', `/api/requests/${request.id}`, ownerToken, { action: 'approve' });
}

test('the team owner makes a member a manager and removes another, who then no longer sees the team', async ({ browser }) => {
  const { team, owner } = arranged;
  const [promoted, removed] = arranged.requesters;
  await ensureMember(promoted);
  await ensureMember(removed);

  // The member about to be removed has the console open.
  const removedPage = (pages.removed = await loggedInPage(browser, removed));
  await expect(removedPage.getByRole('menuitem', { name: team.name, exact: true })).toBeVisible();

  const page = (pages.owner = await loggedInPage(browser, owner));
  await page.goto(`/teams/${team.name}`);
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByRole('row').filter({ hasText: fullName(removed) })).toBeVisible();
  const members = await users.getByRole('row').count();

  await users.getByRole('combobox', { name: `Role of ${fullName(promoted)}` }).click();
  await page.getByRole('option', { name: 'Manager' }).click();
  await expect(page.getByText(`${fullName(promoted)} is now Manager.`)).toBeVisible();
  await expect(users.getByRole('combobox', { name: `Role of ${fullName(promoted)}` })).toHaveText('Manager');

  await users.getByRole('button', { name: `Remove ${fullName(removed)}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${fullName(removed)} from the team?` });
  await expect(confirm).toContainText(`${fullName(removed)} leaves the team and its workspaces, and loses their cluster access there.`);
  await screens(page, '65-team-members-remove-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`${fullName(removed)} was removed from the team.`)).toBeVisible();
  await expect(users.getByRole('row').filter({ hasText: fullName(removed) })).toHaveCount(0);
  await expect(users.getByRole('row')).toHaveCount(members - 1);
  await screens(page, '66-team-members');

  // The server agrees.
  const detail = await api(apiContext, 'GET', `/api/tenants/${team.id}`, ownerToken);
  const roles = new Map(detail.users.map((user: { email: string; pivot: { role: string } }) => [user.email, user.pivot.role]));
  expect(roles.get(promoted.email)).toBe('manager');
  expect(roles.has(removed.email)).toBe(false);

  // The removed member's console: the team has left the sidebar, and its page offers to join.
  await removedPage.reload();
  await expect(removedPage.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await expect(removedPage.getByRole('menuitem', { name: team.name, exact: true })).toHaveCount(0);
  await removedPage.goto(`/teams/${team.name}`);
  await expect(removedPage.getByRole('button', { name: 'Join this team' })).toBeVisible();
  await expect(removedPage.getByRole('table', { name: 'Users' })).toHaveCount(0);
  await expect(removedPage.getByRole('list', { name: 'Users' })).toHaveCount(0);
  await screens(removedPage, '67-team-removed-member');
});

test('the admin changes the quota of a workspace and the cluster follows', async ({ browser }) => {
  const { workspace, team } = arranged;
  const kubeconfig = await ownerKubeconfig();
  const clusterQuota = () =>
    JSON.parse(execFileSync(kubectlPath, ['--kubeconfig', kubeconfig, 'get', 'resourcequota', 'testbed-quota', '-o', 'json'], { encoding: 'utf8' })).spec.hard;
  expect(clusterQuota()).toMatchObject({ 'requests.cpu': '8', pods: '50' });

  const page = await adminPage(browser);
  await page.goto(`/admin/workspaces/${workspace.id}`);
  await expect(page.getByText(workspace.namespace).first()).toBeVisible();
  await page.getByLabel('CPU').fill('3');
  await page.getByLabel('Pods').fill('20');
  await page.getByRole('button', { name: 'Save quota' }).click();
  await expect(page.getByText('Quota saved. The cluster follows within seconds.')).toBeVisible();
  await expect(page.getByLabel('CPU')).toHaveValue('3');
  await expect(page.getByLabel('Pods')).toHaveValue('20');

  // The namespace's ResourceQuota as kubectl shows it (limits twice the requests), and as the page shows it.
  await expect
    .poll(clusterQuota, { message: 'testbed-quota follows the new quota', timeout: 20_000 })
    .toMatchObject({ 'requests.cpu': '3', 'limits.cpu': '6', pods: '20', 'requests.memory': '16Gi' });
  await page.reload();
  const inCluster = page.getByRole('table').filter({ hasText: 'requests.cpu' });
  const limit = (resource: string) => inCluster.getByRole('row').filter({ has: page.getByRole('cell', { name: resource, exact: true }) }).getByRole('cell').nth(1);
  await expect(limit('requests.cpu')).toHaveText('3');
  await expect(limit('limits.cpu')).toHaveText('6');
  await expect(limit('pods')).toHaveText('20');
  await expect(limit('requests.memory')).toHaveText('16Gi');
  await screens(page, '68-admin-workspace-quota');

  // The admin page of the team, whose tabs must fit a phone.
  await page.goto(`/admin/teams/${team.id}`);
  await expect(page.getByRole('tab', { name: 'Members' })).toBeVisible();
  await screens(page, '69-admin-team');
});

test('the admin exports every user as CSV from /admin/users', async ({ browser }) => {
  test.setTimeout(120_000);
  const { admin, owner, requesters } = arranged;
  // Everyone in the database: the seed, this file's accounts, and those the other browser test
  // files make on the same server. Another worker may be adding accounts while this test runs,
  // so the counts below are bracketed: at least as many as before, at most as many as after.
  const usersNow = async (): Promise<number> =>
    (await api(apiContext, 'GET', '/api/admin/users?page=1&per_page=1', adminToken)).meta.total;
  const total = await usersNow();
  expect(total).toBeGreaterThanOrEqual(SEEDED_USERS + arranged.accounts);
  const range = (count: number) => new RegExp(`1-25 of (${count}|${count.toLocaleString('en-US')})$`);
  const everyoneShown = async (page: Page) => {
    const shown = page.getByText(/^1-25 of [\d,]+$/);
    await expect(shown).toBeVisible();
    const count = async () => Number((await shown.innerText()).match(/of ([\d,]+)$/)![1].replace(/,/g, ''));
    await expect.poll(count).toBeGreaterThanOrEqual(total);
  };

  const page = await adminPage(browser);
  await page.goto(`/admin/users?filter=${encodeURIComponent('{}')}`);
  await everyoneShown(page);
  await screens(page, '70-admin-users');

  // Rows with teams: the people of the bulk team, and the admin with two long team names.
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.fill('Joiner');
  await expect(page.getByText(range(REQUESTERS))).toBeVisible();
  await screens(page, '71-admin-users-with-teams');
  await search.fill(admin.email);
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  await screens(page, '72-admin-users-long-teams');
  await search.fill('');
  await everyoneShown(page);

  const started = Date.now();
  const downloading = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const rows: Record<string, string>[] = parse(readFileSync(await download.path(), 'utf8'), { columns: true, skip_empty_lines: true, bom: true });
  console.log(`${download.suggestedFilename()}: ${rows.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(rows.length).toBeGreaterThanOrEqual(total);
  expect(rows.length).toBeLessThanOrEqual(await usersNow());
  // Every account once, ours included.
  const emailColumn = Object.keys(rows[0]).find((column) => /e-?mail/i.test(column));
  expect(emailColumn, `an email column in ${Object.keys(rows[0]).join(', ')}`).toBeTruthy();
  const emails = new Set(rows.map((row) => row[emailColumn!]));
  expect(emails.size).toBe(rows.length);
  for (const user of [admin, owner, ...requesters]) expect(emails.has(user.email)).toBe(true);
  await expect(page.getByRole('button', { name: 'Export' })).toBeEnabled();
});

test('the admin finds the owner by email among 100,000 people and disables the account; the open console is logged out', async ({ browser }) => {
  test.setTimeout(120_000);
  const { owner, team } = arranged;
  // What disabling revokes besides the sessions: a personal token, and the workspace's kubeconfig.
  const kubeconfig = await ownerKubeconfig();
  const personal = await api(apiContext, 'POST', '/api/tokens', ownerToken, { name: `laptop-${Date.now()}` });
  const personalToken: string = personal.token.plainTextToken;
  // The owner's console is open (logged in before the disable).
  const ownerPage = (pages.ownerConsole = await loggedInPage(browser, owner));

  const page = await adminPage(browser);
  await page.goto(`/admin/users?filter=${encodeURIComponent('{}')}`);
  await page.getByRole('textbox', { name: 'Search' }).fill(owner.email);
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: owner.email });
  await expect(row).toContainText(team.name);
  await row.getByText(owner.email).click();
  await expect(page).toHaveURL(/\/admin\/users\/\d+$/);
  await expect(page.getByRole('heading', { name: fullName(owner), level: 1 })).toBeVisible();
  await expect(page.getByText(owner.email).first()).toBeVisible();
  await screens(page, '73-admin-user');

  // The console also asks the server for pending requests every 30 s, and that call's 401 would
  // log it out too: the owner's page is loaded afresh just before the disable, so that in the
  // 10 s after it only the realtime event (SubscriptionEnded) can end the session.
  await ownerPage.goto(`/teams/${team.name}`);
  await expect(ownerPage.getByRole('heading', { name: team.fullname, level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Disable' }).click();
  const confirm = page.getByRole('dialog', { name: `Disable ${fullName(owner)}?` });
  await expect(confirm).toContainText(
    new RegExp(
      `Disabling ${fullName(owner)} revokes 1 personal token and 1 kubeconfig and ends their sessions \\(\\d+ sessions?\\)\\. ` +
        'Their nodes are refused until the account is enabled again; their data stays\\.',
    ),
  );
  await page.screenshot({ path: join(screensDir, '74-admin-user-disable-confirm-desktop.png') });
  await confirm.getByRole('button', { name: 'Disable' }).click();
  const disabledAt = Date.now();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`${fullName(owner)} is disabled.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();

  // The owner's open console says why at once (the realtime SubscriptionEnded event)…
  await expect(ownerPage.getByText('This account is disabled.')).toBeVisible({ timeout: 5_000 });
  await ownerPage.screenshot({ path: join(screensDir, '76-disabled-console-notice-desktop.png') });
  // …and ends the session within seconds, on the login page, still saying why.
  const login = ownerPage.getByRole('button', { name: 'Login' });
  await expect.soft(login, 'the disabled console shows the login page within 10 s').toBeVisible({ timeout: Math.max(1, disabledAt + 10_000 - Date.now()) });
  // However late it comes (a soft failure above), the console must end up logged out.
  await expect(login).toBeVisible({ timeout: 45_000 });
  const seconds = (Date.now() - disabledAt) / 1000;
  console.log(`the disabled console showed the login page ${seconds.toFixed(1)} s after the disable`);
  test.info().annotations.push({ type: 'logged out after', description: `${seconds.toFixed(1)} s` });
  await ownerPage.screenshot({ path: join(screensDir, '77-disabled-console-logged-out-desktop.png') });
  await expect.soft(ownerPage.getByText('This account is disabled.'), 'the login page says why').toBeVisible({ timeout: 1_000 });

  await screens(page, '75-admin-user-disabled');
  // The server refuses the owner's tokens…
  await api(apiContext, 'GET', '/user', ownerToken, undefined, [401]);
  await api(apiContext, 'GET', '/user', personalToken, undefined, [401]);
  // …and the cluster the owner's kubeconfig, once the reconciler has revoked it.
  await expect
    .poll(
      () => {
        try {
          execFileSync(kubectlPath, ['--kubeconfig', kubeconfig, 'get', 'pods'], { stdio: 'pipe' });
          return 'accepted';
        } catch (error) {
          return String((error as { stderr?: Buffer }).stderr ?? error);
        }
      },
      { message: 'the kubeconfig is refused', timeout: 20_000 },
    )
    .toMatch(/Unauthorized|forbidden/i);
});
