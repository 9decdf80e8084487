import { expect, test, type Locator, type Page } from '@playwright/test';
import { screenshot } from './support/screens';
import { createUser, loggedInPage, type TestUser } from './support/users';

// Several people, each in a browser context of their own, through the request workflow:
// a team is asked for and approved by a platform admin, a colleague joins, workspaces are
// created directly and by request, and an outsider joins a workspace.
test.describe.configure({ mode: 'serial' });

let admin: TestUser;
let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;
const shortname = `Edge Lab ${Date.now() % 100000}`;
const teamName = shortname.toLowerCase().replace(/\s+/g, '').replace(/\W+/g, '');

const pages: Record<string, Page> = {};

// Accounts are made once the server under test is up (its start wipes the runtime directory).
test.beforeAll(() => {
  admin = createUser('Margaret', 'Hamilton', { admin: true });
  owner = createUser('Grace', 'Hopper');
  colleague = createUser('Katherine', 'Johnson');
  outsider = createUser('Alan', 'Turing');
});

test.afterAll(async () => {
  for (const page of Object.values(pages)) await page.context().close();
});

async function approveOnRequestsPage(
  page: Page,
  rowText: string | RegExp,
  beforeDeciding?: (dialog: Locator) => Promise<void>,
  options: { search?: string } = {},
) {
  await page.goto('/requests');
  // A platform admin sees every pending request, those of the specs the other worker runs too:
  // enough of them push this one off the first page, so the admin searches.
  if (options.search) await page.getByPlaceholder('Search by requester, email or name').fill(options.search);
  const row = page.getByRole('row').filter({ hasText: rowText }).first();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Manage' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await beforeDeciding?.(dialog);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
}

test('a researcher asks for a team', async ({ browser }) => {
  const page = (pages.owner = await loggedInPage(browser, owner));
  await screenshot(page, '20-home-new-user');
  await page.getByRole('link', { name: 'Create a team' }).first().click();
  await expect(page).toHaveURL(/\/team\/registration$/);

  await page.getByLabel('Full name').fill('Edge Computing Laboratory');
  await page.getByLabel('Short name').fill(shortname);
  await expect(page.getByText(teamName)).toBeVisible();
  await page.getByLabel('Affiliation').fill('University of Somewhere');
  await page.getByLabel('Country').fill('France');
  await page.getByLabel('Website').fill('not a url');
  await page.getByLabel('Why does the testbed need this team?').fill('We run edge AI experiments with students.');
  await page.getByRole('group', { name: 'Category' }).getByRole('radio', { name: 'Research' }).check();
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Invalid URL')).toBeVisible();
  await screenshot(page, '21-team-registration');

  await page.getByLabel('Website').fill('https://edgelab.example.org');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/was sent to the platform admins/i)).toBeVisible();
  await screenshot(page, '22-team-requested');

  // Until the admins decide, the home shows the team as on its way, not "no team yet".
  await page.goto('/');
  const teams = page.getByRole('region', { name: 'Your teams' });
  await expect(teams.getByText('New team — pending approval')).toBeVisible();
  await expect(teams.getByText('You do not belong to any team yet.')).toHaveCount(0);
  await screenshot(page, '22b-home-team-pending');
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 800 });
  // (At this width the cards' regions lose their names in the accessibility tree: the page's text.)
  await expect(page.getByText('New team — pending approval')).toBeVisible();
  await screenshot(page, '22c-home-team-pending-360');
  if (viewport) await page.setViewportSize(viewport);
});

test('the platform admin approves the team on /requests', async ({ browser }) => {
  const page = (pages.admin = await loggedInPage(browser, admin));
  await expect(page.getByText(/waiting for your decision/i).first()).toBeVisible();
  await page.goto('/requests');
  await screenshot(page, '23-requests-admin');
  await approveOnRequestsPage(page, 'Edge Computing Laboratory', async (dialog) => {
    // What the requester wrote, so the admin can judge the request.
    const details = dialog.getByLabel('What was asked');
    await expect(details).toContainText('University of Somewhere');
    await expect(details.getByRole('link', { name: 'https://edgelab.example.org' })).toBeVisible();
    await expect(details).toContainText('We run edge AI experiments with students.');
    await screenshot(page, '23b-manage-team-request');
  }, { search: owner.email });
  await expect(page.getByText(/approved/i).first()).toBeVisible();
});

test('the requester now owns the team and sees it in the sidebar', async () => {
  const page = pages.owner;
  await page.goto('/');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: teamName })).toBeVisible();
  await page.getByRole('menuitem', { name: teamName }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${teamName}$`));
  await expect(page.getByRole('heading', { name: 'Edge Computing Laboratory', level: 1 })).toBeVisible();
  // The owner manages the members: a table with a role select per person.
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByRole('row').filter({ hasText: owner.lastname })).toContainText(/owner/i);
  await screenshot(page, '24-team-page-owner');
});

test('a colleague asks to join; the owner is told at once, without reloading, and approves', async ({ browser }) => {
  await pages.owner.goto('/profile');
  await expect(pages.owner.getByRole('menuitem', { name: /^Requests/ })).toHaveAccessibleName('Requests');
  const page = (pages.colleague = await loggedInPage(browser, colleague));
  await page.goto('/team/join');
  // The picker searches the server as one types (GET /api/tenants?q=).
  await page.getByRole('combobox', { name: 'Team' }).fill('Edge Computing');
  await page.getByRole('option', { name: /Edge Computing Laboratory/ }).click();
  await page.getByLabel('Message').fill('I work on the same project.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/was sent to its managers/i).first()).toBeVisible();
  await screenshot(page, '25-team-join');

  // Delivered over the realtime channel: the notice only comes from the RequestCreated event.
  await expect(pages.owner.getByText('A new request is waiting for your decision.')).toBeVisible({ timeout: 5000 });
  await expect(pages.owner.getByRole('menuitem', { name: /^Requests, 1 pending/ })).toBeVisible({ timeout: 5000 });
  await screenshot(pages.owner, '25b-owner-told-live');

  await approveOnRequestsPage(pages.owner, colleague.firstname);
  await page.goto(`/teams/${teamName}`);
  const users = page.getByRole('list', { name: 'Users' });
  await expect(users.getByRole('listitem').filter({ hasText: colleague.lastname })).toContainText(/member/i);
  await expect(page.getByRole('menuitem', { name: teamName })).toBeVisible();
});

test('the owner creates a workspace directly; its name follows the label', async () => {
  const page = pages.owner;
  await page.goto(`/teams/${teamName}`);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('Vision Lab – Été');
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('vision-lab-ete');
  await screenshot(page, '26-workspace-form');
  await dialog.getByRole('button', { name: 'Create workspace' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: /Vision Lab/ }).first()).toBeVisible();
});

test('the member requests a workspace and the owner approves it', async () => {
  const page = pages.colleague;
  await page.goto(`/teams/${teamName}`);
  await page.getByRole('button', { name: 'Request a workspace' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('Robotics');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(/was sent to the team managers/i).first()).toBeVisible();

  await approveOnRequestsPage(pages.owner, 'robotics');
  await page.goto(`/teams/${teamName}`);
  await expect(page.getByRole('link', { name: /Robotics/ }).first()).toBeVisible();
});

test('an outsider joins a workspace through the team manager', async ({ browser }) => {
  const ownerPage = pages.owner;
  await ownerPage.goto(`/teams/${teamName}`);
  await ownerPage.getByRole('link', { name: /Vision Lab/ }).first().click();
  await expect(ownerPage).toHaveURL(/\/workspaces\/\d+$/);
  const workspaceUrl = new URL(ownerPage.url()).pathname;
  await screenshot(ownerPage, '27-workspace-member');

  const page = (pages.outsider = await loggedInPage(browser, outsider));
  await page.goto(workspaceUrl);
  await expect(page.getByText(/not a member/i).first()).toBeVisible();
  await screenshot(page, '28-workspace-outsider');
  await page.getByRole('button', { name: 'Join workspace' }).click();
  await expect(page.getByText(/request pending/i).first()).toBeVisible();

  await approveOnRequestsPage(ownerPage, outsider.firstname);
  await page.goto(workspaceUrl);
  await expect(page.getByText(/not a member/i)).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: /Vision Lab/ })).toBeVisible();
  await screenshot(page, '28b-workspace-joined');
});

test('platform admins oversee teams, workspaces, users and activity', async () => {
  const page = pages.admin;
  // Searched for: the other browser worker's specs add people, teams and workspaces meanwhile,
  // which can push these off a list's first page.
  const searched = (path: string, q: string) => `${path}?filter=${encodeURIComponent(JSON.stringify({ q }))}`;
  for (const [path, expected, shot] of [
    [searched('/admin/teams', teamName), teamName, '29-admin-teams'],
    [searched('/admin/workspaces', 'vision-lab-ete'), 'vision-lab-ete', '30-admin-workspaces'],
    [searched('/admin/users', outsider.email), outsider.email, '31-admin-users'],
    ['/admin/activity', /request approved/i, '32-admin-activity'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(expected).first()).toBeVisible();
    await screenshot(page, shot);
  }
});

test('people who are not platform admins cannot open the admin screens', async () => {
  const page = pages.colleague;
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeVisible();
  await expect(page.getByText(admin.email)).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Users' })).toHaveCount(0);

  // The server refuses too, whatever the console shows.
  const token = await page.evaluate(() => localStorage.getItem('authentication_token'));
  const answer = await page.request.get('/api/admin/users', { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  expect(answer.status()).toBe(403);
});
