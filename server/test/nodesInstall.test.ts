import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeNameBase } from '../src/nodes/agent.js';
import { createTestContext, eventually, type SignedInUser, type TestContext } from './helpers.js';
import { FAST, nodeUser } from './nodesFixtures.js';
import { runShell } from './shell.js';

// The real install script (served by this server), run with sh and curl, with the kubeadm and
// systemctl test doubles on PATH, against this server listening on loopback and the sandbox
// cluster: both ways in end with the node Running in the console, step by step.

const NODE_BIN = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'node-bin');
const curlMissing = spawnSync('curl', ['--version']).status !== 0;

let ctx: TestContext;
let owner: SignedInUser;

beforeAll(async () => {
  if (curlMissing) throw new Error('curl is needed to run the install script (.ci/run installs it)');
  // The script calls back at APP_URL: the app listens there.
  ctx = await createTestContext({ cluster: { timings: FAST }, listen: 'appUrl', nodeWatcher: { initialBackoffMs: 100 } });
  owner = await nodeUser(ctx, { firstname: 'Iris' });
});
afterAll(async () => {
  await ctx?.close();
});

/** The install runs as on a machine: the doubles first on PATH, files under `root`. */
const runOnMachine = (command: string, root: string, onStdout?: (text: string) => void) =>
  runShell(command, { PATH: `${NODE_BIN}${delimiter}${process.env.PATH ?? ''}`, TESTBED_ROOT: root }, onStdout);

const newRoot = (name: string) => {
  const root = join(ctx.dir, name);
  mkdirSync(join(root, 'etc'), { recursive: true });
  return root;
};

const nodeJson = async (id: number) => (await ctx.inject('GET', `/api/nodes/${id}`, { token: owner.token })).json();
const activity = async (id: number) =>
  ((await ctx.inject('GET', `/api/nodes/${id}/activity`, { token: owner.token })).json() as { description: string; properties: { severity: string } }[])
    .map((entry) => entry.description)
    .reverse();

describe('the install script against this server and the sandbox', () => {
  it('console first: the copied command takes the node from to install through installing to Running', async () => {
    const created = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'x86-64' } });
    const node = created.json();
    expect(node.status).toBe('to install');
    ctx.broadcasts.length = 0;

    const run = await runOnMachine(`curl -fsSL '${node.installation_url}' | sh`, newRoot('console-first'));
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const running = await eventually(async () => {
      const seen = await nodeJson(node.id);
      return seen.status === 'ok' && seen;
    }, { what: 'the node to be Running' });
    expect(running.name).toBe(nodeNameBase(hostname()) || `node-${node.id}`);
    expect(running.info).toMatchObject({ system: { hostname: hostname() }, cluster: { nodeInfo: expect.any(Object) } });
    expect(running.lastActive).toEqual(expect.any(String));

    const steps = await activity(node.id);
    expect(steps[0]).toBe('node added');
    expect(steps).toEqual(
      expect.arrayContaining([
        `node checked in from ${hostname()}`,
        'status changed from to install to installing',
        'bootstrap token issued',
        'joined the cluster',
      ]),
    );
    // The watcher (status from the cluster) and the agent's last report ('joined the cluster')
    // write concurrently, so Running need not be the very last entry; it follows installing.
    const toRunning = steps.findIndex((step) => /^status changed from (installing|Error) to Running$/.test(step));
    expect(toRunning, steps.join('\n')).toBeGreaterThan(steps.indexOf('status changed from to install to installing'));
    const statuses = ctx.broadcasts.filter((event) => event.payload.id === node.id).map((event) => event.payload.status);
    expect(statuses[0]).toBe('installing');
    expect(statuses.at(-1)).toBe('ok');

    // Run again: the node keeps its name and stays Running.
    const again = await runOnMachine(`curl -fsSL '${node.installation_url}' | sh`, join(ctx.dir, 'console-first'));
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await nodeJson(node.id))).toMatchObject({ status: 'ok', name: running.name });
  });

  it('machine first: the generic script shows a code, the owner enters it, the install continues', async () => {
    let code: string | null = null;
    let claimed: ReturnType<TestContext['inject']> | null = null;
    const run = await runOnMachine(`curl -fsSL '${ctx.config.appUrl}/agent/install' | sh`, newRoot('machine-first'), (stdout) => {
      const match = /Enter this code in the console at \S+: ([A-Z]{6})/.exec(stdout);
      if (match && !code) {
        code = match[1]!;
        claimed = ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', code: code.toLowerCase() } });
      }
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(code).toMatch(/^[A-Z]{6}$/);
    const answer = await claimed!;
    expect(answer.statusCode, answer.body).toBe(201);
    const node = answer.json();
    // The host name is taken by the first test's node: the name gets the id.
    await eventually(async () => (await nodeJson(node.id)).status === 'ok', { what: 'the claimed node to be Running' });
    expect((await nodeJson(node.id)).name).toBe(`${nodeNameBase(hostname()) || 'node'}-${node.id}`);
    const steps = await activity(node.id);
    expect(steps.slice(0, 2)).toEqual(['node registered, waiting to be claimed', 'node claimed']);
    expect(steps).toEqual(expect.arrayContaining(['bootstrap token issued', 'joined the cluster']));
  });
});
