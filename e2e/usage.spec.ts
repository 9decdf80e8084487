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
// Every screen at 1280 and 360 px, in English and French.
test.describe.configure({ mode: 'serial' });

const kubectlPath = process.env.KUBECTL ?? '/usr/bin/kubectl';
const tag = Date.now() % 100000;
const HOUR = 3_600_000;
let apiContext: APIRequestContext;
let owner: TestUser;
let member: TestUser;
let adminToken: string;
let memberToken: string;
let team: { id: number; name: string; fullname: string };
let workspaceId: number;
let page: Page;

test.beforeAll(async ({ baseURL }) => {
  apiContext = await playwrightRequest.newContext({ baseURL });
  const admin = createUser('Radia', 'Perlman', { admin: true });
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

async function atBothWidths(name: string) {
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
