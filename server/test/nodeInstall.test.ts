import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, X509Certificate, createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'node:https';
import { hostname, release, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';
import { buildFat12Image } from '../src/nodes/install/fatImage.js';
import { buildNodeSeedImage, seedMetaData, seedUserData } from '../src/nodes/install/cidataImage.js';
import { renderInstallScript } from '../src/nodes/install/installScript.js';
import { runShell } from './shell.js';
import { eventually } from './helpers.js';

// The node install script run for real (sh, curl, the kubeadm and systemctl test doubles on
// PATH) against a small agent server written here and the sandbox cluster, and the USB seed
// image inspected with mtools and dosfstools without mounting it.

const NODE_BIN = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'node-bin');
const SECRET = 'tbn_Q1w2E3r4T5y6U7i8O9p0-_abcdef';

let workDir: string;
let cluster: SandboxCluster;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'node-install-'));
  cluster = await startSandboxCluster({
    storageDir: join(workDir, 'storage'),
    host: '127.0.0.1',
    port: 0,
    timings: { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 200, terminationMs: 100, nodeReadyMs: 150 },
  });
});

afterAll(async () => {
  await cluster?.close();
  rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// helpers

/** A plain HTTPS request to the sandbox with its admin token, trusting its CA. */
 
function sandbox(path: string, options: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.url}${path}`,
      {
        method: options.method ?? 'GET',
        ca: cluster.caPem,
        headers: { Authorization: `Bearer ${cluster.adminToken}`, ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(options.body !== undefined ? JSON.stringify(options.body) : undefined);
  });
}

const caCertHash = () => `sha256:${createHash('sha256').update(new X509Certificate(cluster.caPem).publicKey.export({ type: 'spki', format: 'der' })).digest('hex')}`;

const randomText = (length: number) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
};

interface AgentCall {
  method: string;
  path: string;
  /** The Bearer secret sent, if any. */
  secret: string | null;
   
  body: any;
}

interface AgentNode {
  id: number;
  secret: string;
  claimed: boolean;
  code: string | null;
  name: string;
}

/**
 * The console's agent endpoints, minimal but real: nodes by secret, codes for machine-first
 * registration, bootstrap tokens created as kubeadm Secrets in the sandbox. Records every call.
 */
class FakeConsole {
  readonly calls: AgentCall[] = [];
  readonly nodes: AgentNode[] = [];
  url = '';
  /** Overrides for the next tests: a wrong CA hash makes kubeadm's discovery fail. */
  caHashOverride: string | null = null;
  codeTtlSeconds = 600;
  private server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: error.message }));
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  addNode(secret: string, claimed = true): AgentNode {
    const node: AgentNode = { id: this.nodes.length + 1, secret, claimed, code: null, name: `edge-${randomText(8)}` };
    this.nodes.push(node);
    return node;
  }

  claim(code: string): void {
    const node = this.nodes.find((n) => n.code === code);
    if (!node) throw new Error(`unknown code ${code}`);
    node.claimed = true;
    node.code = null;
  }

  /** The agent calls made with SECRET, as `report:<step>`, `bootstrap`, `heartbeat`, … */
  stepsOf(secret: string): string[] {
    return this.calls
      .filter((call) => call.secret === secret)
      .map((call) => (call.path === '/agent/report' ? `report:${call.body.step}` : call.path.replace(/^\/agent\//, '')));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const body = text ? JSON.parse(text) : undefined;
    this.calls.push({ method: req.method ?? '', path, secret: bearer, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };

    const install = /^\/agent\/install(?:\/([^/]+))?$/.exec(path);
    if (req.method === 'GET' && install) {
      const secret = install[1] ?? null;
      if (secret !== null && !this.nodes.some((n) => n.secret === secret)) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('Not found');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/x-shellscript' });
      res.end(renderInstallScript({ appUrl: this.url, secret }));
      return;
    }
    if (req.method === 'POST' && path === '/agent/register') {
      const node = this.addNode(`tbn_${randomBytes(24).toString('base64url')}`, false);
      node.code = randomText(6).replace(/[0-9]/g, 'X').toUpperCase();
      return json(201, {
        secret: node.secret,
        code: node.code,
        code_expires_at: new Date(Date.now() + this.codeTtlSeconds * 1000).toISOString(),
        poll_seconds: 1,
      });
    }

    const node = this.nodes.find((n) => n.secret === bearer);
    if (!node) return json(401, { message: 'Unauthenticated.' });
    if (req.method === 'GET' && path === '/agent/node') return json(200, { id: node.id, claimed: node.claimed, status: 'to install', name: null });
    if (req.method === 'POST' && path === '/agent/report') return json(200, { ok: true });
    if (req.method === 'POST' && path === '/agent/heartbeat') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.method === 'POST' && path === '/agent/bootstrap') {
      if (!node.claimed) return json(409, { message: 'This node has not been claimed yet.' });
      const tokenId = randomText(6);
      const tokenSecret = randomText(16);
      const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const created = await sandbox('/api/v1/namespaces/kube-system/secrets', {
        method: 'POST',
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `bootstrap-token-${tokenId}`, namespace: 'kube-system' },
          type: 'bootstrap.kubernetes.io/token',
          stringData: {
            description: `testbed node ${node.id}`,
            'token-id': tokenId,
            'token-secret': tokenSecret,
            expiration: expiresAt,
            'usage-bootstrap-authentication': 'true',
            'usage-bootstrap-signing': 'true',
            'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
          },
        },
      });
      if (created.status !== 201) throw new Error(`creating the bootstrap token failed: ${JSON.stringify(created.body)}`);
      return json(200, {
        token: `${tokenId}.${tokenSecret}`,
        ca_cert_hash: this.caHashOverride ?? caCertHash(),
        api_server: new URL(cluster.url).host,
        node_name: node.name,
        expires_at: expiresAt,
      });
    }
    json(404, { message: 'Not found.' });
  }
}

const withDoubles = () => `${NODE_BIN}${delimiter}${process.env.PATH ?? ''}`;
/** The real PATH without any directory that has a kubeadm (the doubles' or a real one). */
const withoutKubeadm = () =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, 'kubeadm')))
    .join(delimiter);

function newRoot(name: string): string {
  const root = join(workDir, name);
  mkdirSync(join(root, 'etc'), { recursive: true });
  return root;
}

const readLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

// ---------------------------------------------------------------------------------------------
// the script as text

describe('renderInstallScript', () => {
  it('renders a POSIX sh script that sh and dash accept, with the URL and secret quoted', () => {
    for (const secret of [SECRET, null]) {
      const script = renderInstallScript({ appUrl: 'https://testbed.example.org/', secret });
      const file = join(workDir, `syntax-${secret ? 'bound' : 'generic'}.sh`);
      writeFileSync(file, script);
      expect(spawnSync('sh', ['-n', file]).status).toBe(0);
      if (existsSync('/bin/dash')) expect(spawnSync('/bin/dash', ['-n', file], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
      expect(script.startsWith('#!/bin/sh\n')).toBe(true);
      expect(script).toContain("APP_URL='https://testbed.example.org'\n");
      expect(script).toContain(`NODE_SECRET='${secret ?? ''}'\n`);
      expect(script).not.toContain('@APP_URL@');
      expect(script).not.toMatch(/\[\[ |^\s*function\s|\bdeclare\b|\$\{[A-Za-z_]+\[/m);
    }
  });

  it('refuses a bad secret or a bad console URL', () => {
    const bad: Array<{ appUrl: string; secret: string | null }> = [
      { appUrl: 'https://testbed.example.org', secret: 'tbn_' },
      { appUrl: 'https://testbed.example.org', secret: "tbn_x'; rm -rf /" },
      { appUrl: 'https://testbed.example.org', secret: 'abc_123' },
      { appUrl: 'https://testbed.example.org', secret: 'tbn_a b' },
      { appUrl: 'ftp://testbed.example.org', secret: SECRET },
      { appUrl: 'not a url', secret: SECRET },
      { appUrl: "https://testbed.example.org/x'y", secret: SECRET },
      { appUrl: 'https://testbed.example.org/$(id)', secret: SECRET },
      { appUrl: 'https://user:pw@testbed.example.org', secret: SECRET },
    ];
    for (const input of bad) expect(() => renderInstallScript(input), JSON.stringify(input)).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------
// the script run for real

describe('the install script, run for real', () => {
  const agent = new FakeConsole();
  beforeAll(() => agent.start());
  afterAll(() => agent.close());

  it('checks in, bootstraps, joins the sandbox, installs the heartbeat and reports joined; a second run skips the join', async () => {
    const node = agent.addNode(SECRET);
    const root = newRoot('bound');
    // A hostile os-release in the target root: quotes and a backslash must survive as JSON.
    writeFileSync(join(root, 'etc', 'os-release'), `NAME=Edge\nPRETTY_NAME='Edge "Linux" \\ 1.0'\n`);
    const scriptFile = join(root, 'install.sh');
    // Asynchronously: the agent server answering the download runs in this process.
    const download = await runShell(`curl -fsS --max-time 10 -o '${scriptFile}' '${agent.url}/agent/install/${SECRET}'`, {});
    expect(download.code, download.stderr).toBe(0);

    const first = await runShell(`sh ${scriptFile}`, { PATH: withDoubles(), TESTBED_ROOT: root });
    expect(first.stderr).not.toContain('ERROR');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(agent.stepsOf(SECRET)).toEqual(['report:checkin', 'bootstrap', 'report:installing', 'heartbeat', 'report:joined']);
    expect(first.stdout).toContain('==> checking in with the console');
    expect(first.stdout).toContain('This node has joined the cluster');

    const checkin = agent.calls.find((call) => call.secret === SECRET && call.body?.step === 'checkin')!;
    expect(checkin.body.facts).toMatchObject({
      hostname: hostname(),
      architecture: execFileSync('uname', ['-m'], { encoding: 'utf8' }).trim(),
      os: 'Edge "Linux" \\ 1.0',
      kernel: release(),
    });
    expect(Array.isArray(checkin.body.facts.addresses)).toBe(true);

    // The Node exists in the cluster, created with the bootstrap token, and its kubelet reports Ready.
    const created = await sandbox(`/api/v1/nodes/${node.name}`);
    expect(created.status).toBe(200);
    expect(created.body.metadata.labels).toMatchObject({ 'kubernetes.io/hostname': node.name, 'kubernetes.io/os': 'linux' });
    expect(created.body.status.nodeInfo).toMatchObject({ osImage: 'Edge "Linux" \\ 1.0', operatingSystem: 'linux' });
    await eventually(async () => {
      const current = await sandbox(`/api/v1/nodes/${node.name}`);
      return current.body.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
    }, { timeoutMs: 10_000 });

    // Files under TESTBED_ROOT, and the system commands called.
    const kubeletConf = join(root, 'etc', 'kubernetes', 'kubelet.conf');
    expect(readFileSync(kubeletConf, 'utf8')).toContain(`server: ${cluster.url}`);
    const secretFile = join(root, 'etc', 'testbed', 'node-secret');
    expect(readFileSync(secretFile, 'utf8')).toBe(`${SECRET}\n`);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(root, 'etc', 'systemd', 'system', 'testbed-heartbeat.service'), 'utf8')).toContain('ExecStart=/bin/sh /usr/local/sbin/testbed-heartbeat');
    expect(readFileSync(join(root, 'etc', 'systemd', 'system', 'testbed-heartbeat.timer'), 'utf8')).toMatch(/OnUnitActiveSec=1min[\s\S]*WantedBy=timers.target/);
    expect(readLines(join(root, 'var', 'log', 'systemctl.calls'))).toEqual(['enable --now kubelet', 'daemon-reload', 'enable --now testbed-heartbeat.timer']);
    expect(readLines(join(root, 'var', 'log', 'kubeadm.calls')).filter((line) => line.startsWith('join '))).toHaveLength(1);

    // The installed heartbeat works on its own, as systemd would run it.
    const heartbeat = await runShell(`sh ${join(root, 'usr', 'local', 'sbin', 'testbed-heartbeat')}`, { PATH: withDoubles(), TESTBED_ROOT: root });
    expect(heartbeat.code, heartbeat.stderr).toBe(0);
    expect(agent.stepsOf(SECRET).at(-1)).toBe('heartbeat');

    // Second run: already joined, so no bootstrap token and no kubeadm join, still reported joined.
    const before = agent.stepsOf(SECRET).length;
    const second = await runShell(`sh ${scriptFile}`, { PATH: withDoubles(), TESTBED_ROOT: root });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(agent.stepsOf(SECRET).slice(before)).toEqual(['report:checkin', 'report:installing', 'heartbeat', 'report:joined']);
    expect(second.stdout).toContain('skipping kubeadm join');
    expect(readLines(join(root, 'var', 'log', 'kubeadm.calls')).filter((line) => line.startsWith('join '))).toHaveLength(1);
    expect(agent.calls.filter((call) => call.secret === SECRET && call.body?.step === 'installing').at(-1)?.body.message).toMatch(/already joined/);
  });

  it('stops with exit 1 naming a missing prerequisite, and reports the failure', async () => {
    const secret = `tbn_${randomBytes(12).toString('hex')}`;
    agent.addNode(secret);
    const root = newRoot('missing-kubeadm');
    writeFileSync(join(root, 'install.sh'), renderInstallScript({ appUrl: agent.url, secret }));
    const run = await runShell(`sh ${join(root, 'install.sh')}`, { PATH: withoutKubeadm(), TESTBED_ROOT: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/missing required commands: kubeadm\b/);
    expect(agent.stepsOf(secret)).toEqual(['report:failed']);
    expect(agent.calls.find((call) => call.secret === secret)?.body.message).toContain('kubeadm');
    expect(existsSync(join(root, 'etc', 'kubernetes', 'kubelet.conf'))).toBe(false);
  });

  it('reports failed when kubeadm join fails (a CA hash that does not match the cluster)', async () => {
    const secret = `tbn_${randomBytes(12).toString('hex')}`;
    agent.addNode(secret);
    const root = newRoot('wrong-ca');
    writeFileSync(join(root, 'install.sh'), renderInstallScript({ appUrl: agent.url, secret }));
    agent.caHashOverride = `sha256:${'0'.repeat(64)}`;
    try {
      const run = await runShell(`sh ${join(root, 'install.sh')}`, { PATH: withDoubles(), TESTBED_ROOT: root });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('none of the public keys');
      expect(agent.stepsOf(secret)).toEqual(['report:checkin', 'bootstrap', 'report:installing', 'report:failed']);
      expect(agent.calls.filter((call) => call.secret === secret).at(-1)?.body.message).toContain('joining the cluster');
      expect(existsSync(join(root, 'etc', 'kubernetes', 'kubelet.conf'))).toBe(false);
    } finally {
      agent.caHashOverride = null;
    }
  });

  it('fails clearly when the console does not know the secret', async () => {
    const root = newRoot('unknown-secret');
    writeFileSync(join(root, 'install.sh'), renderInstallScript({ appUrl: agent.url, secret: 'tbn_unknown' }));
    const run = await runShell(`sh ${join(root, 'install.sh')}`, { PATH: withDoubles(), TESTBED_ROOT: root });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/401/);
    expect(run.stderr).toContain('failed while checking in with the console');
  });

  it('generic script: registers, shows the code, waits until it is claimed, then installs', async () => {
    const root = newRoot('generic');
    let claimedCode: string | null = null;
    const run = await runShell(`curl -fsS '${agent.url}/agent/install' | sh`, { PATH: withDoubles(), TESTBED_ROOT: root }, (stdout) => {
      const match = /Enter this code in the console at (\S+)\/nodes\/create: ([A-Z]{6})/.exec(stdout);
      if (match && !claimedCode) {
        expect(match[1]).toBe(agent.url);
        claimedCode = match[2]!;
        // Someone enters the code a little later, while the script polls.
        setTimeout(() => agent.claim(claimedCode!), 1500);
      }
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(claimedCode).toMatch(/^[A-Z]{6}$/);
    const node = agent.nodes.at(-1)!;
    expect(node.claimed).toBe(true);
    const register = agent.calls.find((call) => call.path === '/agent/register' && call.body?.facts?.hostname === hostname());
    expect(register?.secret).toBeNull();
    const steps = agent.stepsOf(node.secret);
    // Polled at least twice (unclaimed, then claimed), then the same install as a bound script.
    expect(steps.filter((step) => step === 'node').length).toBeGreaterThanOrEqual(2);
    expect(steps.filter((step) => step !== 'node')).toEqual(['report:checkin', 'bootstrap', 'report:installing', 'heartbeat', 'report:joined']);
    expect(readFileSync(join(root, 'etc', 'testbed', 'node-secret'), 'utf8')).toBe(`${node.secret}\n`);
    expect((await sandbox(`/api/v1/nodes/${node.name}`)).status).toBe(200);
  });

  it('generic script: gives up with a clear message when nobody enters the code in time', async () => {
    const root = newRoot('generic-expired');
    agent.codeTtlSeconds = 2;
    try {
      const run = await runShell(`curl -fsS '${agent.url}/agent/install' | sh`, { PATH: withDoubles(), TESTBED_ROOT: root });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/nobody entered the code [A-Z]{6} before it expired; run this script again for a new code/);
      const node = agent.nodes.at(-1)!;
      expect(node.claimed).toBe(false);
      expect(agent.stepsOf(node.secret).filter((step) => step !== 'node')).toEqual(['report:failed']);
    } finally {
      agent.codeTtlSeconds = 600;
    }
  });
});

// ---------------------------------------------------------------------------------------------
// the USB seed image

const mtools = (args: string[]) => execFileSync(args[0]!, args.slice(1), { encoding: 'utf8', env: { ...process.env, MTOOLS_SKIP_CHECK: '1' } });

describe('the USB seed image (cloud-init NoCloud, FAT labelled CIDATA)', () => {
  it('is a clean FAT volume labelled CIDATA holding user-data and meta-data that install the node', () => {
    const input = { appUrl: 'https://testbed.example.org', secret: SECRET, hostname: 'pi-lab-01' };
    const image = buildNodeSeedImage(input);
    expect(image.length).toBe(1_474_560);
    const file = join(workDir, 'seed.img');
    writeFileSync(file, image);

    expect(spawnSync('fsck.fat', ['-n', file]).status).toBe(0);
    expect(mtools(['mlabel', '-i', file, '-s', '::'])).toMatch(/Volume label is CIDATA\s*$/m);
    expect(mtools(['minfo', '-i', file, '::'])).toMatch(/dos4=0x29/);
    expect(image.subarray(43, 54).toString('latin1')).toBe('CIDATA     ');
    const listing = mtools(['mdir', '-i', file, '::']);
    expect(listing).toMatch(/\buser-data\b/);
    expect(listing).toMatch(/\bmeta-data\b/);
    expect(listing).toMatch(/2 files/);

    const userData = mtools(['mtype', '-i', file, '::user-data']);
    expect(userData).toBe(seedUserData(input));
    expect(userData.startsWith('#cloud-config\n')).toBe(true);
    expect(userData).toContain(`https://testbed.example.org/agent/install/${SECRET}`);
    const metaData = mtools(['mtype', '-i', file, '::meta-data']);
    expect(metaData).toBe(seedMetaData(input));

    // As cloud-init reads them.
    const config = loadYaml<{ write_files: Array<{ path: string; encoding: string; content: string; permissions: string }>; runcmd: string[] }>(userData);
    expect(config.write_files[0]).toMatchObject({ path: '/var/lib/testbed/install.sh', encoding: 'b64', permissions: '0700' });
    expect(Buffer.from(config.write_files[0]!.content, 'base64').toString('utf8')).toBe(renderInstallScript(input));
    expect(config.runcmd).toHaveLength(1);
    expect(config.runcmd[0]).toContain(`url='https://testbed.example.org/agent/install/${SECRET}'`);
    expect(config.runcmd[0]).toContain('sh /var/lib/testbed/install.sh');
    const runcmdFile = join(workDir, 'runcmd.sh');
    writeFileSync(runcmdFile, config.runcmd[0]!);
    expect(spawnSync('sh', ['-n', runcmdFile]).status).toBe(0);
    const meta = loadYaml<Record<string, string>>(metaData);
    expect(meta['instance-id']).toMatch(/^testbed-node-[0-9a-f]{16}$/);
    expect(meta['instance-id']).not.toContain(SECRET.slice(4, 12));
    expect(meta['local-hostname']).toBe('pi-lab-01');

    // Stable identity for the same node, another for another node.
    expect(seedMetaData(input)).toBe(metaData);
    expect(seedMetaData({ ...input, secret: 'tbn_other' })).not.toBe(metaData);
  });

  it('the generic seed downloads the generic script and has no hostname', () => {
    const input = { appUrl: 'http://console.local:8080/', secret: null };
    const file = join(workDir, 'generic-seed.img');
    writeFileSync(file, buildNodeSeedImage(input));
    expect(spawnSync('fsck.fat', ['-n', file]).status).toBe(0);
    const userData = mtools(['mtype', '-i', file, '::user-data']);
    expect(userData).toContain("url='http://console.local:8080/agent/install'\n");
    expect(userData).not.toContain('tbn_');
    const metaData = mtools(['mtype', '-i', file, '::meta-data']);
    expect(metaData).toMatch(/^instance-id: testbed-node-generic-[0-9a-f]{16}\n$/);
    expect(() => buildNodeSeedImage({ ...input, hostname: 'bad_host!' })).toThrow();
    expect(() => buildNodeSeedImage({ appUrl: 'javascript:alert(1)', secret: null })).toThrow();
  });

  it('the FAT builder writes long names over several entries, plain 8.3 names, and empty files, all fsck-clean', () => {
    const content = Buffer.from('x'.repeat(1300));
    const image = buildFat12Image({
      label: 'seed',
      modifiedAt: new Date('2026-03-04T05:06:08Z'),
      files: [
        { name: 'network-config', content },
        { name: 'README.TXT', content: Buffer.from('hello\n') },
        { name: 'a-rather-long-file-name.yaml', content: Buffer.from('k: v\n') },
        { name: 'empty', content: Buffer.alloc(0) },
      ],
    });
    const file = join(workDir, 'multi.img');
    writeFileSync(file, image);
    const fsck = spawnSync('fsck.fat', ['-n', '-v', file], { encoding: 'utf8' });
    expect(fsck.status, fsck.stdout + fsck.stderr).toBe(0);
    expect(mtools(['mlabel', '-i', file, '-s', '::'])).toMatch(/Volume label is SEED\s*$/m);
    const listing = mtools(['mdir', '-i', file, '::']);
    expect(listing).toMatch(/NETWOR~1\s+1300 2026-03-04\s+5:06\s+network-config/);
    expect(listing).toMatch(/README\s+TXT\s+6 2026-03-04/);
    expect(listing).toMatch(/a-rather-long-file-name\.yaml/);
    expect(listing).toMatch(/4 files/);
    expect(mtools(['mtype', '-i', file, '::network-config'])).toBe(content.toString());
    expect(mtools(['mtype', '-i', file, '::a-rather-long-file-name.yaml'])).toBe('k: v\n');
    expect(mtools(['mtype', '-i', file, '::empty'])).toBe('');
    expect(() => buildFat12Image({ label: 'X', files: [{ name: 'big', content: Buffer.alloc(1_500_000) }] })).toThrow(/do not fit/);
    expect(() => buildFat12Image({ label: 'X', files: [{ name: 'a/b', content: Buffer.alloc(1) }] })).toThrow();
  });
});
