import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './support/screens';
import { createUser, loggedInPage, type TestUser } from './support/users';

// A user adds a node in the console, copies the install command, runs it (here: from the test,
// with kubeadm, systemctl and sudo test doubles on PATH, against the sandbox cluster that
// `npm start` runs), and watches the node go from 'to install' to Running without reloading.
// A platform admin then finds it among the cluster's nodes.
test.describe.configure({ mode: 'serial' });

const NODE_BIN = join(process.cwd(), 'server', 'test', 'fixtures', 'node-bin');
const MACHINE_BIN = join(process.cwd(), 'e2e', 'support', 'machine-bin');
let owner: TestUser;
let admin: TestUser;
let page: Page;
let nodePath: string;
let installCommand: string;

/** Runs a shell command as a machine would, with the system-command doubles first on PATH. */
function runOnMachine(
  command: string,
  onOutput: (output: string) => void = () => undefined,
): Promise<{ code: number | null; output: string }> {
  const root = mkdtempSync(join(tmpdir(), 'e2e-node-'));
  mkdirSync(join(root, 'etc'), { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      env: { ...process.env, PATH: [MACHINE_BIN, NODE_BIN, process.env.PATH ?? ''].join(delimiter), TESTBED_ROOT: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      onOutput(output);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test.beforeAll(async ({ browser }) => {
  owner = createUser('Radia', 'Perlman');
  admin = createUser('Frances', 'Allen', { admin: true });
  page = await loggedInPage(browser, owner);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
});

test.afterAll(async () => {
  await page.context().close();
});

test('the user adds a node and gets the installation panel', async () => {
  await page.getByRole('menuitem', { name: 'Nodes' }).click();
  await expect(page).toHaveURL(/\/nodes$/);
  await expect(page.getByText('You have not added any node yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Add a Node' }).first().click();
  await expect(page).toHaveURL(/\/nodes\/create$/);
  await expect(page.getByPlaceholder('ABCXYZ')).toBeVisible();

  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Raspberry Pi' }).click();
  await page.getByLabel('Hostname').fill('lab-pi-01');
  await page.getByLabel('Notes').fill('Second shelf, room 204');

  // A bad static address: the server's field error under the field and the alert; nothing lost.
  await page.getByRole('switch', { name: 'DHCP' }).click();
  await page.getByLabel('Static IPv4 address').fill('300.1.2.3');
  await page.getByRole('button', { name: 'Add a new node' }).click();
  await expect(page.getByText('Registration error')).toBeVisible();
  await expect(page.getByText('The ipv4 field must be a valid IPv4 address.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/nodes\/create$/);
  await expect(page.getByLabel('Hostname')).toHaveValue('lab-pi-01');
  await screenshot(page, '50a-node-create-error');
  await page.getByRole('switch', { name: 'DHCP' }).click();
  await screenshot(page, '50-node-create');
  await page.getByRole('button', { name: 'Add a new node' }).click();

  await expect(page).toHaveURL(/\/nodes\/\d+$/);
  nodePath = new URL(page.url()).pathname;
  // 'to install': the installation panel, below what the page waits for.
  await expect(page.getByRole('heading', { name: 'Install your node' })).toBeVisible();
  await expect(page.getByText('Review your node configuration and status.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download image' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Waiting for the machine to run the install command…' })).toBeVisible();
  // The server's APP_URL here is http://127.0.0.1:<port>: a machine other than this one could
  // not fetch the script from it, and the page says so under the command.
  const terminal = page.getByRole('region', { name: 'Install from terminal' });
  await expect(terminal.getByRole('note')).toContainText('This address only works on this machine');
  await expect(terminal.getByRole('note')).toContainText(/from http:\/\/127\.0\.0\.1:\d+, a loopback address/);
  await screenshot(page, '51-node-install-panel');
  await page.getByRole('button', { name: 'Show the install command' }).click();
  await expect(terminal.getByRole('button', { name: /^Copy/ })).toBeFocused();
  await expect(terminal.getByRole('button', { name: /^Copy/ })).toBeInViewport();
});

test('the install command is copied, and says Copied for a moment', async () => {
  const terminal = page.getByRole('region', { name: 'Install from terminal' }).or(page.locator('section').filter({ hasText: 'Install from terminal' }).first());
  await terminal.getByRole('button', { name: /^Copy/ }).first().click();
  await expect(page.getByText('Copied')).toBeVisible();
  installCommand = await page.evaluate(() => navigator.clipboard.readText());
  expect(installCommand).toMatch(/^curl -fsSL 'http:\/\/127\.0\.0\.1:\d+\/agent\/install\/tbn_[A-Za-z0-9_-]+' \| sudo sh$/);
  await expect(page.getByText('Copied')).toBeHidden({ timeout: 5_000 });
});

test('running the command takes the node to Running, live, with its activity', async ({ browser }) => {
  const run = await runOnMachine(installCommand);
  expect(run.code, run.output).toBe(0);

  // No reload: the status arrives by the owner's realtime channel.
  expect(new URL(page.url()).pathname).toBe(nodePath);
  await expect(page.getByText('Review your node configuration and status.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Running', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('node-waiting')).toHaveCount(0);
  const activity = page.getByRole('table').filter({ hasText: 'Severity' });
  await expect(activity).toContainText('joined the cluster');
  await expect(activity).toContainText('bootstrap token issued');
  // A kubelet that is still starting is 'installing', not an error.
  await expect(activity).not.toContainText('to Error');
  await expect(activity).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await screenshot(page, '52-node-running');

  // On a phone the severity goes under the date and the table fits the screen.
  const phone = await loggedInPage(browser, owner, { viewport: { width: 360, height: 800 } });
  await phone.goto(nodePath);
  const phoneActivity = phone.getByRole('region', { name: 'Activity' }).getByRole('table');
  await expect(phoneActivity.getByRole('columnheader')).toHaveText(['Date', 'Description']);
  await expect(phoneActivity).toContainText('joined the cluster');
  const sideways = await phoneActivity.evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
  expect(sideways).toBe(0);
  await phoneActivity.scrollIntoViewIfNeeded();
  await screenshot(phone, '52b-node-running-360');
  await phone.context().close();

  await page.getByRole('menuitem', { name: 'Nodes' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Raspberry Pi' });
  await expect(row).toContainText('Running');
  await screenshot(page, '53-node-list');
});

test('a platform admin sees the node among the cluster nodes, with addresses, capacity and system info', async ({ browser }) => {
  const adminPage = await loggedInPage(browser, admin);
  await adminPage.goto('/admin/nodes');
  await expect(adminPage.getByRole('link', { name: 'sandbox-node-1' })).toBeVisible();
  const row = adminPage.getByRole('row').filter({ hasText: 'Radia Perlman' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/InternalIP|\d+\.\d+\.\d+\.\d+/);
  await screenshot(adminPage, '54-admin-nodes');
  await row.getByRole('link').first().click();
  await expect(adminPage).toHaveURL(/\/admin\/nodes\/[a-z0-9.-]+$/);
  await expect(adminPage.getByText('Conditions')).toBeVisible();
  await expect(adminPage.getByText('Ready', { exact: true }).first()).toBeVisible();
  await screenshot(adminPage, '55-admin-node');
  await adminPage.context().close();
});

test('a machine that runs the generic installer is claimed with the code it shows', async () => {
  await page.goto('/nodes/create');
  await page.getByRole('button', { name: 'No code yet? Prepare the machine first' }).click();
  const genericCommand = (await page.getByTestId('generic-install-command').innerText()).trim();
  expect(genericCommand).toMatch(/^curl -fsSL 'http:\/\/127\.0\.0\.1:\d+\/agent\/install' \| sudo sh$/);
  await expect(page.getByRole('link', { name: 'Download the generic image' })).toHaveAttribute('href', /\/agent\/image$/);
  await screenshot(page, '56-node-machine-first');

  // The machine runs the generic script and prints its code; the owner types it in.
  let shown: (code: string) => void;
  const codeShown = new Promise<string>((resolve) => (shown = resolve));
  const run = runOnMachine(genericCommand, (output) => {
    const match = /Enter this code in the console at \S+: ([A-Z]{6})/.exec(output);
    if (match) shown(match[1]!);
  });
  const code = await Promise.race([
    codeShown,
    run.then((result) => Promise.reject(new Error(`the script ended without a code:\n${result.output}`))),
  ]);
  await page.getByLabel('Authentication code').fill(code.toLowerCase());
  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Virtual machine' }).click();
  await page.getByRole('button', { name: 'Add a new node' }).click();
  await expect(page).toHaveURL(/\/nodes\/\d+$/);
  expect(new URL(page.url()).pathname).not.toBe(nodePath);

  const result = await run;
  expect(result.code, result.output).toBe(0);
  await expect(page.getByText('Running', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  const activity = page.getByRole('table').filter({ hasText: 'Severity' });
  await expect(activity).toContainText('node registered, waiting to be claimed');
  await expect(activity).toContainText('node claimed');
  await screenshot(page, '57-node-claimed-running');
});

test('a node cannot take a name another node goes by: refused under Hostname, nothing added', async () => {
  await page.goto('/nodes');
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'lab-pi-01' })).toHaveCount(1);
  const before = await rows.count();
  await page.goto('/nodes/create');
  await page.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Raspberry Pi' }).click();
  await page.getByLabel('Hostname').fill('LAB-PI-01');
  await page.getByRole('button', { name: 'Add a new node' }).click();
  await expect(page.getByText('This name is already used by another node. Choose another hostname.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/nodes\/create$/);
  await screenshot(page, '58-node-name-taken');
  await page.goto('/nodes');
  await expect(rows.filter({ hasText: 'lab-pi-01' })).toHaveCount(1);
  await expect(rows).toHaveCount(before);
});
