import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './support/screens';
import { createUser, loggedInPage, type TestUser } from './support/users';

// A workspace member downloads a kubeconfig from the workspace page, starts a pod with kubectl
// against the sandbox cluster that `npm start` runs, and sees the pod appear in the Pods
// section without reloading.
test.describe.configure({ mode: 'serial' });

const kubectlPath = process.env.KUBECTL ?? '/usr/bin/kubectl';
let admin: TestUser;
let page: Page;
let kubeconfigFile: string;
let workspacePath: string;

test.beforeAll(async ({ browser }) => {
  expect(existsSync(kubectlPath), `kubectl is needed at ${kubectlPath} (set KUBECTL)`).toBe(true);
  admin = createUser('Barbara', 'Liskov', { admin: true });
  page = await loggedInPage(browser, admin);
});

test.afterAll(async () => {
  await page.context().close();
});

test('a platform admin gets a team at once and creates a workspace in it', async () => {
  const shortname = `Pods ${Date.now() % 100000}`;
  await page.goto('/team/registration');
  await page.getByLabel('Full name').fill('Pod Scheduling Group');
  await page.getByLabel('Short name').fill(shortname);
  await page.getByLabel('Affiliation').fill('Testbed operators');
  await page.getByLabel('Country').fill('Norway');
  await page.getByLabel('Website').fill('https://pods.example.org');
  await page.getByLabel('Why does the testbed need this team?').fill('To run the platform.');
  await page.getByRole('group', { name: 'Category' }).getByRole('radio', { name: 'Teaching' }).check();
  await page.getByRole('button', { name: 'Send request' }).click();

  const teamName = shortname.toLowerCase().replace(/\s+/g, '');
  await expect(page.getByRole('menuitem', { name: teamName })).toBeVisible();
  await page.goto(`/teams/${teamName}`);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('Scheduling');
  await dialog.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('link', { name: 'Scheduling' }).first().click();
  await expect(page).toHaveURL(/\/workspaces\/\d+$/);
  workspacePath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: 'Pods' })).toBeVisible();
  await expect(page.getByText('No pods are running in this workspace yet.')).toBeVisible();
});

test('the member downloads a kubeconfig that kubectl accepts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-kubeconfig-'));
  // The namespace is created by the reconciler a moment after approval: until then the
  // server answers "still being set up" and the panel offers Retry.
  await expect(async () => {
    const retry = page.getByRole('button', { name: 'Retry' });
    const downloading = page.waitForEvent('download', { timeout: 3000 });
    if (await retry.isVisible()) await retry.click();
    else await page.getByRole('button', { name: 'Download kubeconfig' }).click();
    const download = await downloading;
    kubeconfigFile = join(dir, download.suggestedFilename());
    await download.saveAs(kubeconfigFile);
  }).toPass({ timeout: 20_000 });
  expect(kubeconfigFile).toMatch(/\.kubeconfig$/);
  expect(readFileSync(kubeconfigFile, 'utf8')).toContain('certificate-authority-data');
  await expect(page.getByText(/Your kubeconfig expires on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/)).toBeVisible();
  await screenshot(page, '40-workspace-kubeconfig');

  const pods = JSON.parse(execFileSync(kubectlPath, ['--kubeconfig', kubeconfigFile, 'get', 'pods', '-o', 'json'], { encoding: 'utf8' }));
  expect(pods.items).toEqual([]);
  const elsewhere = (() => {
    try {
      execFileSync(kubectlPath, ['--kubeconfig', kubeconfigFile, 'get', 'pods', '-n', 'kube-system'], { stdio: 'pipe' });
      return '';
    } catch (error) {
      return String((error as { stderr: Buffer }).stderr);
    }
  })();
  expect(elsewhere).toMatch(/Forbidden/);
});

test('a pod started with kubectl appears in the Pods section without reloading', async () => {
  execFileSync(kubectlPath, ['--kubeconfig', kubeconfigFile, 'run', 'hello', '--image=busybox:1.36'], { stdio: 'pipe' });
  // The list polls only every 30 s: within 10 s, only the workspace channel's events can show it.
  const row = page.getByRole('row').filter({ hasText: 'hello' });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row.getByText('Running')).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  expect(new URL(page.url()).pathname).toBe(workspacePath);
  await screenshot(page, '41-workspace-pods');
});

test("the pod's logs stream live in the logs dialog, with pause and follow", async () => {
  const row = page.getByRole('row').filter({ hasText: 'hello' });
  await row.getByRole('button', { name: 'Logs for hello' }).click();
  const dialog = page.getByRole('dialog', { name: 'Logs for hello' });
  await expect(dialog).toBeVisible();
  const view = dialog.getByTestId('pod-log-lines');
  await expect(view).toContainText('started container hello', { timeout: 10_000 });
  // The sandbox container writes a line every few seconds: new lines arrive while we watch.
  await expect(view).toContainText('(tick 1)', { timeout: 10_000 });
  await expect(view).toContainText('(tick 2)', { timeout: 10_000 });
  await screenshot(page, '42-pod-logs-dialog');

  await dialog.getByRole('button', { name: 'Pause' }).click();
  await expect(dialog.getByText(/new lines? while paused/)).toBeVisible({ timeout: 10_000 });
  const frozen = await view.textContent();
  expect(frozen).not.toContain('(tick 4)');
  await dialog.getByRole('button', { name: 'Follow' }).click();
  await expect(view).not.toHaveText(frozen ?? '');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('a pod deleted with kubectl leaves the Pods section without reloading', async () => {
  execFileSync(kubectlPath, ['--kubeconfig', kubeconfigFile, 'delete', 'pod', 'hello', '--wait=false'], { stdio: 'pipe' });
  await expect(page.getByRole('row').filter({ hasText: 'hello' })).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByText('No pods are running in this workspace yet.')).toBeVisible();
});
