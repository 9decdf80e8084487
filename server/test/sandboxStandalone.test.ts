import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubernetesGateway, loadKubeConfig } from '../src/cluster/kubernetesGateway.js';
import { parseStandaloneArgs } from '../src/cluster/sandbox/standalone.js';

// `npm run sandbox`: the sandbox Kubernetes API as its own process, shared by console replicas
// through the admin kubeconfig it writes (CLUSTER=kubernetes, KUBECONFIG=that file).

const root = join(import.meta.dirname, '..', '..');

describe('npm run sandbox', () => {
  let storage: string;
  let child: ChildProcess;
  let output = '';
  const kubeconfig = () => join(storage, 'sandbox-cluster', 'admin.kubeconfig');
  const auditLog = () => join(storage, 'audit.log');

  beforeAll(async () => {
    storage = mkdtempSync(join(tmpdir(), 'testbed-standalone-'));
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/src/cluster/sandbox/standalone.ts', '--storage', storage, '--port', '0', '--server-name', 'sandbox.test', '--server-name', '10.1.2.3', '--audit-log', auditLog()],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('Console replicas:')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(storage, { recursive: true, force: true });
  });

  it('writes an admin kubeconfig a console replica can use, and audits every request', async () => {
    expect(existsSync(kubeconfig())).toBe(true);
    const gateway = kubernetesGateway(loadKubeConfig(kubeconfig()), 'kubernetes', {});
    expect(await gateway.health()).toBe(true);
    await gateway.ensureWorkspace({ namespace: 'standalone-space', teamName: 'standalone', workspaceName: 'space' });
    expect(await gateway.readWorkspaceQuota('standalone-space')).not.toBeNull();
    const audit = readFileSync(auditLog(), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { verb: string; path: string; user: string });
    expect(audit).toContainEqual({ verb: 'create', path: '/api/v1/namespaces', user: 'system:admin' });
    expect(audit).toContainEqual({ verb: 'create', path: '/api/v1/namespaces/standalone-space/resourcequotas', user: 'system:admin' });
  });

  it('serves a certificate naming the addresses replicas reach it by', () => {
    const certificate = new X509Certificate(readFileSync(join(storage, 'sandbox-cluster', 'server.crt')));
    expect(certificate.subjectAltName).toBe('DNS:localhost, DNS:sandbox.test, IP Address:127.0.0.1, IP Address:10.1.2.3');
  });

  it('stops on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a bad port, and defaults to port 6443 and storage/sandbox-cluster', () => {
    expect(() => parseStandaloneArgs(['--port', 'http'], {})).toThrow('--port must be a port number (0-65535), not http');
    expect(() => parseStandaloneArgs(['--colour'], {})).toThrow();
    const defaults = parseStandaloneArgs([], {});
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: 6443, serverNames: [] });
    expect(defaults.kubeconfig).toMatch(/storage\/sandbox-cluster\/admin\.kubeconfig$/);
  });
});
