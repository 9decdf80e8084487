import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { e2eRuntimeDir } from '../playwright.config';
import { api, login } from './support/admin';
import { checkPage, DESKTOP, PHONE } from './support/pageChecks';
import { recordUsage, type UsageRow } from './support/usage';
import { createUser, loggedInPage, type TestUser } from './support/users';

// Usage people can see (docs/usage.md), in the browser: the workspace page's 30-day usage card
// with its chart and its numbers, the team page's CPU allocation and its workspaces' quotas
// summed, and the home's workspace near a limit after a pod started with kubectl fills it.
// Then the team quota flow: a platform admin caps the team, a member asks for more CPU within
// what is left, the team owner approves, and the workspace and its namespace follow.
// Every screen at 1280 and 360 px; the usage ones in French too.
test.describe.configure({ mode: 'serial' });

const kubectlPath = process.env.KUBECTL ?? '/usr/bin/kubectl';
const tag = Date.now() % 100000;
const HOUR = 3_600_000;
let apiContext: APIRequestContext;
let admin: TestUser;
let owner: TestUser;
let member: TestUser;
let adminToken: string;
let memberToken: string;
let team: { id: number; name: string; fullname: string };
let workspaceId: number;
let page: Page;

test.beforeAll(async ({ baseURL }) => {
  apiContext = await playwrightRequest.newContext({ baseURL });
  admin = createUser('Radia', 'Perlman', { admin: true });
  owner = createUser('Barbara', 'Liskov');
  member = createUser('Frances', 'Allen');
  adminToken = await login(apiContext, admin);
  const ownerToken = await login(apiContext, owner);
  memberToken = await login(apiContext, member);

  const shortname = `Usage Lab ${tag}`;
  const asked = await api(apiContext, 'POST', '/api/requests/teams', ownerToken, {
    fullname: 'Usage Laboratory',
    shortname,
    affiliation: 'University of Somewhere',
    country: 'France',
    url: 'https://usage.example.org',
    joining_reason: 'Experiments on edge nodes.',
    joining_category: 'Research',
  });
  await api(apiContext, 'PATCH', `/api/requests/${asked.id}`, adminToken, { action: 'approve' });
  team = await api(apiContext, 'GET', `/api/tenants/${shortname.toLowerCase().replace(/\W+/g, '')}`, ownerToken);
  const join = await api(apiContext, 'PATCH', '/api/requests/teams', memberToken, { team_id: team.id });
  await api(apiContext, 'PATCH', `/api/requests/${join.id}`, ownerToken, { action: 'approve' });
  const wanted = await api(apiContext, 'POST', '/api/requests/workspaces', memberToken, { label: 'Vision', name: 'vision', team_id: team.id });
  workspaceId = (await api(apiContext, 'PATCH', `/api/requests/${wanted.id}`, ownerToken, { action: 'approve' })).object.id;

  // Thirty days of usage: a busy weekday rhythm, nothing on the weekend, 82.5 core-hours this month.
  const rows: UsageRow[] = [];
  const now = Date.now();
  for (let day = 1; day <= 28; day += 1) {
    const start = new Date(now - day * 24 * HOUR);
    start.setUTCHours(9, 0, 0, 0);
    if (start.getUTCDay() === 0 || start.getUTCDay() === 6) continue;
    for (let hour = 0; hour < 6; hour += 1) {
      rows.push({ workspace_id: workspaceId, team_id: team.id, hour_start: new Date(start.getTime() + hour * HOUR).toISOString(), cpu_core_hours: 0.5 + (day % 5) * 0.25, memory_gib_hours: 1 + (day % 3) });
    }
  }
  recordUsage(rows, [{ id: team.id, allocation_core_hours: 400 }]);
});

test.afterAll(async () => {
  await page?.context().close();
  await apiContext?.dispose();
});

async function atBothWidths(name: string, on: Page = page) {
  for (const [size, width] of [
    [DESKTOP, 1280],
    [PHONE, 360],
  ] as const) {
    await on.setViewportSize(size);
    await on.waitForTimeout(400);
    await checkPage(on, `${name}-${width}`);
  }
  await on.setViewportSize(DESKTOP);
}

/**
 * The member's kubeconfig for the workspace (written to a file), once the reconciler has set the
 * namespace up: a quota change makes it pending again, and a kubeconfig waits for that (409).
 */
async function memberKubeconfig(): Promise<string> {
  let issued: { kubeconfig: string } | undefined;
  await expect
    .poll(
      async () => {
        const answer = await apiContext.post(`/api/subnamespaces/${workspaceId}/kubeconfig`, { headers: { authorization: `Bearer ${memberToken}`, accept: 'application/json' } });
        if (answer.ok()) issued = await answer.json();
        return answer.status();
      },
      { timeout: 30_000 },
    )
    .toBe(201);
  const kubeconfig = join(e2eRuntimeDir, `usage-${tag}.yaml`);
  writeFileSync(kubeconfig, issued!.kubeconfig);
  return kubeconfig;
}

async function switchLanguage(to: 'English' | 'Français') {
  await page.getByRole('button', { name: /^(Language|Langue) ?: / }).click();
  await page.getByRole('menuitem', { name: to }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', to === 'English' ? 'en' : 'fr');
}

test('the workspace page shows 30 days of usage as a chart and as numbers', async ({ browser }) => {
  page = await loggedInPage(browser, member);
  await page.goto(`/workspaces/${workspaceId}`);
  const card = page.getByRole('region', { name: 'Usage, last 30 days' });
  await expect(card.getByTestId('usage-totals')).toContainText('CPU core-hours and');
  // The chart (its own chunk, loaded on this page only) draws a bar per day.
  // (Twenty weekdays with usage in the 30 days: at least as many bars.)
  await expect.poll(() => card.locator('svg rect').count()).toBeGreaterThanOrEqual(20);
  await atBothWidths('usage-01-workspace');
  await card.getByRole('button', { name: 'Memory' }).click();
  await card.getByRole('button', { name: 'Show as a table' }).click();
  await expect(card.getByRole('table')).toBeVisible();
  // One row per day of the range, and the header.
  expect(await card.getByRole('row').count()).toBeGreaterThanOrEqual(31);
  await atBothWidths('usage-02-workspace-numbers');

  await switchLanguage('Français');
  const french = page.getByRole('region', { name: 'Utilisation, 30 derniers jours' });
  await expect(french.getByTestId('usage-totals')).toContainText('heures-cœur de CPU');
  await atBothWidths('usage-03-workspace-fr');
  await switchLanguage('English');
});

test("the team page shows the month's CPU allocation and its workspaces' quotas summed", async () => {
  await page.goto(`/teams/${team.name}`);
  const allocation = page.getByRole('region', { name: /^CPU allocation, / });
  await expect(allocation.getByTestId('allocation-used')).toHaveText(/ of 400 used$/);
  await expect(page.getByRole('region', { name: 'Workspaces’ quotas' }).getByTestId('quota-pods')).toHaveText(/^\d+ \/ 50$/);
  await expect(page.getByRole('region', { name: 'Usage, last 30 days' }).getByTestId('usage-totals')).toBeVisible();
  await atBothWidths('usage-04-team');
});

test('a workspace at its pod limit shows on the home', async () => {
  await api(apiContext, 'PATCH', `/api/admin/workspaces/${workspaceId}`, adminToken, { quota: { pods: 1 } });
  // The quota is applied by the reconciler (until then, more than one pod could start, and a
  // kubeconfig waits for the workspace to be set up again).
  await expect
    .poll(async () => (await api(apiContext, 'GET', `/api/subnamespaces/${workspaceId}`, memberToken)).quota.pods.hard, { timeout: 30_000 })
    .toBe('1');
  const kubeconfig = await memberKubeconfig();
  execFileSync(kubectlPath, ['--kubeconfig', kubeconfig, 'run', 'busy', '--image=busybox:1.36'], { stdio: 'pipe' });

  await page.goto('/');
  const near = page.getByRole('region', { name: 'Workspaces near their limits' });
  await expect(near.getByRole('link', { name: 'Vision' })).toBeVisible();
  await expect(near).toContainText('Pods: 100% (1 / 1)');
  await atBothWidths('usage-05-home-near-limit');
  await switchLanguage('Français');
  await expect(page.getByRole('region', { name: 'Espaces de travail proches de leurs limites' })).toContainText('Pods : 100 %');
  await atBothWidths('usage-06-home-near-limit-fr');
  await switchLanguage('English');
});

test('an admin caps the team, a member asks for more CPU within it, the owner approves, and the cluster follows', async ({ browser }) => {
  // Three people, three browsers, and screens checked at two widths: more than the default 90 s.
  test.setTimeout(240_000);

  // The platform admin sets the team quota: room for the workspace's 8 CPUs and a little more.
  const adminPage = await loggedInPage(browser, admin);
  await adminPage.goto(`/admin/teams/${team.id}`);
  await adminPage.getByRole('button', { name: 'Team quota' }).click();
  const teamQuota = adminPage.getByRole('dialog', { name: 'Quota of Usage Laboratory' });
  await teamQuota.getByLabel('CPUs').fill('12');
  await teamQuota.getByLabel('Pods').fill('10');
  await atBothWidths('usage-07-admin-team-quota', adminPage);
  await teamQuota.getByRole('button', { name: 'Save' }).click();
  await expect(adminPage.getByText('Team quota saved')).toBeVisible();
  await expect(teamQuota).toBeHidden();
  await adminPage.context().close();

  // The member asks for more CPU from the workspace page. Less than the workspace has is refused
  // under the field (the server's 422, no request made); 10 of the team's 12 is then sent.
  await page.goto(`/workspaces/${workspaceId}`);
  const quota = page.getByRole('region', { name: 'Quota', exact: true });
  await expect(quota.getByTestId('quota-cpu')).toHaveText(/ \/ 8$/);
  await page.getByRole('button', { name: 'Ask for more quota' }).click();
  const ask = page.getByRole('dialog', { name: 'Ask for more quota for Vision' });
  await ask.getByLabel('CPUs').fill('4');
  await ask.getByRole('textbox', { name: 'Reason' }).fill('Preprocessing the camera data set takes ten cores for a week.');
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(ask.getByText('The quota.cpu field must not be lower than the current 8.')).toBeVisible();
  await expect(ask.getByLabel('CPUs')).toHaveAttribute('aria-invalid', 'true');
  await atBothWidths('usage-08-ask-lower-refused');
  await ask.getByLabel('CPUs').fill('10');
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Your request for more quota for Vision was sent. You will be told of the decision.')).toBeVisible();
  await expect(ask).toBeHidden();

  // The team owner finds it among the requests, sees what is asked against the current, and approves.
  const ownerPage = await loggedInPage(browser, owner);
  await ownerPage.goto('/requests');
  const row = ownerPage.getByRole('row').filter({ hasText: 'More quota' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('CPU (requests): 8 → 10');
  await expect(row).toContainText('Frances Allen');
  await atBothWidths('usage-09-owner-requests', ownerPage);
  await row.getByRole('button', { name: 'Manage' }).click();
  const manage = ownerPage.getByRole('dialog', { name: 'Manage request' });
  const asked = manage.getByRole('definition').filter({ hasText: '→' });
  await expect(asked).toHaveText('8 → 10');
  await expect(manage).toContainText('Preprocessing the camera data set');
  await atBothWidths('usage-10-owner-approves', ownerPage);
  await manage.getByRole('button', { name: 'Approve' }).click();
  await expect(ownerPage.getByText('Request approved')).toBeVisible();
  await expect(ownerPage.getByRole('row').filter({ hasText: 'More quota' })).toHaveCount(0);
  await ownerPage.context().close();

  // The namespace's ResourceQuota follows (limits twice the requests), as kubectl shows it …
  const kubeconfig = await memberKubeconfig();
  const clusterQuota = () =>
    JSON.parse(execFileSync(kubectlPath, ['--kubeconfig', kubeconfig, 'get', 'resourcequota', 'testbed-quota', '-o', 'json'], { encoding: 'utf8' })).spec.hard;
  await expect
    .poll(clusterQuota, { message: 'testbed-quota follows the approved request', timeout: 30_000 })
    .toMatchObject({ 'requests.cpu': '10', 'limits.cpu': '20' });
  // … and the workspace page, reloaded (it shows the quota as the cluster counts it, whose
  // status may trail the spec by a moment).
  await expect(async () => {
    await page.reload();
    await expect(quota.getByTestId('quota-cpu')).toHaveText(/ \/ 10$/, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await atBothWidths('usage-11-workspace-more-cpu');
});
