import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, login } from './support/admin';
import { checkPage, DESKTOP, PHONE } from './support/pageChecks';
import { createUser, loggedInPage, type TestUser } from './support/users';

// Ends in the browser (docs/lifecycle.md): a workspace whose end is 20 days away shows its
// banner on the workspace page and on the home; the member who manages it asks for a renewal
// in the dialog; the team's owner approves it on /requests; the banner is gone and the new end
// date shows. Then the owner gives a membership an end date from the members list, and invites
// a class in one go until the end of term. Every screen at 1280 and 360 px, in English and French.
test.describe.configure({ mode: 'serial' });

const tag = Date.now() % 100000;
const DAY = 86_400_000;
const RENEWAL_DAYS = 60;
let apiContext: APIRequestContext;
let admin: TestUser;
let owner: TestUser;
let member: TestUser;
let team: { id: number; name: string; fullname: string };
let workspaceId: number;
let endsAt: string;
const pages: Record<string, Page> = {};

/** '30 June 2027', as the console writes an end date in English (day first). */
const longDate = (iso: string, locale = 'en-GB') => new Date(iso).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric' });

test.beforeAll(async ({ baseURL }) => {
  apiContext = await playwrightRequest.newContext({ baseURL });
  admin = createUser('Margaret', 'Hamilton', { admin: true });
  owner = createUser('Grace', 'Hopper');
  member = createUser('Katherine', 'Johnson');
  const [adminToken, ownerToken, memberToken] = [await login(apiContext, admin), await login(apiContext, owner), await login(apiContext, member)];

  // The team, asked for by its owner and approved by a platform admin; the member joins it.
  const shortname = `Term Lab ${tag}`;
  const asked = await api(apiContext, 'POST', '/api/requests/teams', ownerToken, {
    fullname: 'Teaching Laboratory',
    shortname,
    affiliation: 'University of Somewhere',
    country: 'France',
    url: 'https://term.example.org',
    joining_reason: 'A course on edge computing.',
    joining_category: 'Teaching',
  });
  await api(apiContext, 'PATCH', `/api/requests/${asked.id}`, adminToken, { action: 'approve' });
  team = await api(apiContext, 'GET', `/api/tenants/${shortname.toLowerCase().replace(/\W+/g, '')}`, ownerToken);
  const join = await api(apiContext, 'PATCH', '/api/requests/teams', memberToken, { team_id: team.id });
  await api(apiContext, 'PATCH', `/api/requests/${join.id}`, ownerToken, { action: 'approve' });

  // The member asks for a workspace, which makes them its manager once the owner approves.
  const wanted = await api(apiContext, 'POST', '/api/requests/workspaces', memberToken, { label: 'Vision', name: 'vision', team_id: team.id });
  const approved = await api(apiContext, 'PATCH', `/api/requests/${wanted.id}`, ownerToken, { action: 'approve' });
  workspaceId = approved.object.id;

  // Its end 20 days away: within the warning time (30 days by default).
  endsAt = new Date(Date.now() + 20 * DAY).toISOString();
  await api(apiContext, 'PATCH', `/api/admin/workspaces/${workspaceId}`, adminToken, { expires_at: endsAt });
});

test.afterAll(async () => {
  for (const page of Object.values(pages)) await page.context().close();
  await apiContext?.dispose();
});

/**
 * checkPage (no sideways scroll, axe, a screenshot) at the desktop and the phone widths. After
 * each resize, a moment for what follows the window's size: MUI measures a multi-line field's
 * height with a hidden copy of it, resized 166 ms after the window.
 */
async function atBothWidths(page: Page, name: string) {
  for (const [size, width] of [
    [DESKTOP, 1280],
    [PHONE, 360],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    await checkPage(page, `${name}-${width}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The language menu of the app bar: 'English' or 'Français'. */
async function switchLanguage(page: Page, to: 'English' | 'Français') {
  await page.getByRole('button', { name: /^(Language|Langue) ?: / }).click();
  await page.getByRole('menuitem', { name: to }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', to === 'English' ? 'en' : 'fr');
}

test('the member sees the end coming on the home and on the workspace page', async ({ browser }) => {
  const page = (pages.member = await loggedInPage(browser, member));
  const banner = page.getByRole('region', { name: 'Ending soon' });
  await expect(banner).toContainText(`Workspace Vision ends on ${longDate(endsAt)}.`);
  await expect(banner.getByRole('button', { name: 'Request renewal: Vision' })).toBeVisible();
  await atBothWidths(page, 'lifecycle-01-home-ending');

  await banner.getByRole('link', { name: /^Open/ }).click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}$`));
  await expect(page.getByRole('alert').filter({ hasText: 'This workspace ends on' })).toBeVisible();
  await expect(page.getByText(`Ends ${longDate(endsAt)}`)).toBeVisible();
  await atBothWidths(page, 'lifecycle-02-workspace-ending');
});

test('the same in French', async () => {
  const page = pages.member;
  await switchLanguage(page, 'Français');
  await expect(page.getByRole('alert').filter({ hasText: 'Cet espace de travail prend fin le' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Demander un renouvellement' })).toBeVisible();
  await atBothWidths(page, 'lifecycle-03-workspace-ending-fr');
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Bientôt terminés' })).toContainText(`L’espace de travail Vision prend fin le ${longDate(endsAt, 'fr')}.`);
  await atBothWidths(page, 'lifecycle-04-home-ending-fr');
  await page.getByRole('button', { name: 'Demander un renouvellement : Vision' }).click();
  const dialog = page.getByRole('dialog', { name: 'Demander le renouvellement de Vision' });
  await expect(dialog.getByLabel('Jours')).toHaveValue('90');
  await atBothWidths(page, 'lifecycle-05-renewal-dialog-fr');
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await switchLanguage(page, 'English');
});

test('the member requests a renewal from the dialog', async () => {
  const page = pages.member;
  await page.goto(`/workspaces/${workspaceId}`);
  const banner = page.getByRole('alert').filter({ hasText: 'This workspace ends on' });
  await banner.getByRole('button', { name: 'Request renewal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request the renewal of Vision' });
  await expect(dialog.getByLabel('Days')).toHaveValue('90');
  // The reason is required: said under the field, nothing sent.
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Days').fill(String(RENEWAL_DAYS));
  await dialog.getByLabel('Reason').fill('The course runs for two more months.');
  await atBothWidths(page, 'lifecycle-06-renewal-dialog');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Your request to renew Vision was sent. You will be told of the decision.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(banner.getByText('Renewal requested')).toBeVisible();
  await atBothWidths(page, 'lifecycle-07-renewal-requested');
});

test("the team's owner approves it on the requests page", async ({ browser }) => {
  const page = (pages.owner = await loggedInPage(browser, owner));
  await page.goto('/requests');
  const row = page.getByRole('row').filter({ hasText: 'Renew workspace' });
  await expect(row).toContainText(`+${RENEWAL_DAYS} days`);
  await expect(row).toContainText('The course runs for two more months.');
  await atBothWidths(page, 'lifecycle-08-requests-renewal');
  await row.getByRole('button', { name: 'Manage' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage request' });
  const asked = dialog.getByLabel('What was asked');
  await expect(asked).toContainText(`Days asked${RENEWAL_DAYS}`);
  await expect(asked).toContainText(`Current end${longDate(endsAt)}`);
  await atBothWidths(page, 'lifecycle-09-manage-renewal');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Request approved')).toBeVisible();
});

test('the banner is gone and the new end date shows', async () => {
  const page = pages.member;
  const renewed = new Date(Date.parse(endsAt) + RENEWAL_DAYS * DAY).toISOString();
  await page.goto(`/workspaces/${workspaceId}`);
  await expect(page.getByText(`Ends ${longDate(renewed)}`)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'This workspace ends on' })).toHaveCount(0);
  await atBothWidths(page, 'lifecycle-10-workspace-renewed');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Ending soon' })).toHaveCount(0);
});

test('the owner gives a membership an end date from the members list', async () => {
  const page = pages.owner;
  await page.goto(`/teams/${team.name}`);
  const users = page.getByRole('table', { name: 'Users' });
  const row = users.getByRole('row').filter({ hasText: 'Katherine Johnson' });
  await row.getByRole('button', { name: 'Membership end of Katherine Johnson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Membership of Katherine Johnson' });
  const end = new Date(Date.now() + 200 * DAY);
  const value = `${end.getFullYear()}-${String(end.getMonth() + 1).padStart(2, '0')}-${String(end.getDate()).padStart(2, '0')}`;
  await dialog.getByLabel('Membership ends').fill(value);
  await atBothWidths(page, 'lifecycle-11-membership-end-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(`until ${longDate(end.toISOString())}`);
  // The team's own review date and status, in 'About the team'.
  await expect(page.getByRole('region', { name: 'About the team' })).toContainText('Review date');
  await atBothWidths(page, 'lifecycle-12-team-members-until');

  await switchLanguage(page, 'Français');
  const rowInFrench = page.getByRole('table', { name: 'Utilisateurs' }).getByRole('row').filter({ hasText: 'Katherine Johnson' });
  await expect(rowInFrench).toContainText(`jusqu’au ${longDate(end.toISOString(), 'fr')}`);
  await atBothWidths(page, 'lifecycle-13-team-members-until-fr');
  await switchLanguage(page, 'English');
});

test('the owner invites a class in one go until the end of term', async () => {
  const page = pages.owner;
  await page.goto(`/teams/${team.name}`);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone to Teaching Laboratory' });
  const students = [1, 2, 3].map((n) => `student${n}.${tag}@uni.example`);
  await dialog.getByRole('textbox', { name: 'Email addresses' }).fill(`${students[0]}, ${students[1]}\n${students[2]} ${students[0]}\n${member.email}`);
  await expect(dialog.getByText('4 addresses (at most 200)')).toBeVisible();
  const term = new Date(Date.now() + 150 * DAY);
  await dialog.getByLabel('Membership ends').fill(`${term.getFullYear()}-${String(term.getMonth() + 1).padStart(2, '0')}-${String(term.getDate()).padStart(2, '0')}`);
  await dialog.getByRole('button', { name: 'Send 4 invitations' }).click();
  const results = dialog.getByRole('list', { name: 'What happened to each address' });
  await expect(dialog.getByText('3 invited, 1 not invited.')).toBeVisible();
  await expect(results.getByRole('listitem').filter({ hasText: member.email })).toContainText('Already a member');
  await atBothWidths(page, 'lifecycle-14-invite-class-results');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const pending = page.getByRole('list', { name: 'Invitations' });
  for (const student of students) await expect(pending.getByRole('listitem').filter({ hasText: student })).toContainText(`Membership until ${longDate(term.toISOString())}`);
});
