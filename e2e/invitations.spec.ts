import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, login } from './support/admin';
import { linkIn, waitForMail } from './support/mail';
import { screenshot } from './support/screens';
import { createUser, loggedInPage } from './support/users';

// Invitations in the browser: a team owner invites a colleague who has no account,
// to the team and one of its workspaces; the colleague follows the mailed link, registers
// through it, accepts the policy, and lands in the team and the workspace.
test.describe.configure({ mode: 'serial' });

const tag = Date.now();
const colleague = { firstname: 'Katherine', lastname: 'Johnson', email: `katherine.${tag}@uni.example`, password: 'orbital-mechanics-1962' };
let apiContext: APIRequestContext;
let team: { id: number; name: string; fullname: string };
let owner: ReturnType<typeof createUser>;

test.beforeAll(async ({ baseURL }) => {
  apiContext = await playwrightRequest.newContext({ baseURL });
  const admin = createUser('Margaret', 'Hamilton', { admin: true });
  owner = createUser('Grace', 'Hopper');
  const adminSession = await login(apiContext, admin);
  const ownerSession = await login(apiContext, owner);
  const shortname = `Invite Lab ${tag}`;
  const asked = await api(apiContext, 'POST', '/api/requests/teams', ownerSession, {
    fullname: 'Invitations Laboratory',
    shortname,
    affiliation: 'University of Somewhere',
    country: 'France',
    url: 'https://invite.example.org',
    joining_reason: 'We invite colleagues.',
    joining_category: 'Research',
  });
  await api(apiContext, 'PATCH', `/api/requests/${asked.id}`, adminSession, { action: 'approve' });
  team = await api(apiContext, 'GET', `/api/tenants/${shortname.toLowerCase().replace(/\W+/g, '')}`, ownerSession);
  const created = await api(apiContext, 'POST', '/api/requests/workspaces', ownerSession, { label: 'Radio', name: 'radio', team_id: team.id });
  expect(created.status).toBe('Approved');
});

test.afterAll(async () => {
  await apiContext?.dispose();
});

async function atWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 860 });
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

test('an owner invites a colleague without an account to the team and a workspace', async ({ browser }) => {
  const page = await loggedInPage(browser, owner);
  await page.goto(`/teams/${team.id}`);
  await expect(page.getByRole('heading', { name: 'Invitations', exact: true })).toBeVisible();
  await expect(page.getByText('No pending invitations.')).toBeVisible();
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone to Invitations Laboratory' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(colleague.email);
  await dialog.getByRole('checkbox', { name: 'Radio' }).check();
  await atWidths(page, 'invitations-01-dialog');
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${colleague.email}`)).toBeVisible();
  const list = page.getByRole('list', { name: 'Invitations' });
  await expect(list.getByText(colleague.email)).toBeVisible();
  await expect(list.getByText(/Member · Radio · Invited by Grace Hopper/)).toBeVisible();
  await atWidths(page, 'invitations-02-team-page');
  await page.context().close();
});

test('the colleague registers through the link and lands in the team and the workspace', async ({ browser }) => {
  const mail = await waitForMail(colleague.email, /invites you/);
  expect(mail.text).toContain('Grace Hopper invites you to join the team Invitations Laboratory');
  const link = linkIn(mail, '/invitations/');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByText(`Grace Hopper invites ${colleague.email} to join Invitations Laboratory as Member.`)).toBeVisible();
  await expect(page.getByText('Workspaces: Radio')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with Test University' })).toBeVisible();
  await atWidths(page, 'invitations-03-landing');

  await page.getByRole('tab', { name: 'I am new here' }).click();
  await page.locator('input[name="firstname"]').fill(colleague.firstname);
  await page.locator('input[name="lastname"]').fill(colleague.lastname);
  await page.locator('input[name="password"]').fill(colleague.password);
  await page.locator('input[name="password_confirmation"]').fill(colleague.password);
  await page.getByRole('button', { name: 'Create my account and join' }).click();

  // The link proved the address: straight to the policy step, then the team.
  await expect(page).toHaveURL(new RegExp(`/teams/${team.id}$`));
  await expect(page.getByText('Terms of service').first()).toBeVisible();
  await page.getByLabel(/I have read and agree/i).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Invitations Laboratory', level: 1 })).toBeVisible();
  const workspaceLink = page.getByRole('list', { name: 'Workspaces' }).getByRole('link', { name: /^Radio / });
  await expect(workspaceLink).toBeVisible();
  await atWidths(page, 'invitations-04-joined-team');

  await workspaceLink.click();
  await expect(page.getByRole('button', { name: /kubeconfig/i })).toBeVisible();

  // The link worked once.
  await page.goto(link);
  await expect(page.getByText('This invitation has already been used.')).toBeVisible();
  await context.close();
});

test('a person signed in with another address is told and can switch', async ({ browser }) => {
  const session = await login(apiContext, owner);
  const other = `other.${tag}@uni.example`;
  await api(apiContext, 'POST', `/api/tenants/${team.id}/invitations`, session, { email: other, role: 'member' });
  const link = linkIn(await waitForMail(other, /invites you/), '/invitations/');
  const page = await loggedInPage(browser, owner);
  await page.goto(link);
  await expect(page.getByText(`This invitation is for ${other}, but you are signed in as ${owner.email}.`)).toBeVisible();
  await atWidths(page, 'invitations-05-other-account');
  await page.getByRole('button', { name: `Sign out and continue as ${other}` }).click();
  await expect(page.getByRole('tab', { name: 'I have an account' })).toBeVisible();
  await page.context().close();
});

test('a colleague signs in with their institution from the link and joins', async ({ browser }) => {
  // ada@uni.example is an account of the test provider (scripts/oidc-dev.ts), verified there.
  const session = await login(apiContext, owner);
  await api(apiContext, 'POST', `/api/tenants/${team.id}/invitations`, session, { email: 'ada@uni.example', role: 'member' });
  const link = linkIn(await waitForMail('ada@uni.example', /invites you/), '/invitations/');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole('link', { name: 'Sign in with Test University' }).click();
  await page.getByRole('button', { name: /Ada Lovelace/ }).click();
  // Back on the invitation, signed in with the invited address: joined at once.
  await expect(page).toHaveURL(new RegExp(`/teams/${team.id}$`));
  await page.getByLabel(/I have read and agree/i).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Invitations Laboratory', level: 1 })).toBeVisible();
  await expect(page.getByText('Member', { exact: true }).first()).toBeVisible();
  await context.close();
});
