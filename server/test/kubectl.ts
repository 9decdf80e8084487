import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

// What the kubectl test files share: which kubectl to run, the rule that CI must have it (a
// loud skip elsewhere), quick sandbox timings, and a runner bound to one kubeconfig.

export const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
export const runFile = promisify(execFile);

/** Whether kubectl is there; under CI its absence fails the file instead of skipping it. */
export function kubectlAvailable(testFile: string, what: string): boolean {
  if (existsSync(KUBECTL)) return true;
  if (process.env.CI) {
    throw new Error(`kubectl is required for ${testFile} in CI but was not found at ${KUBECTL} (set KUBECTL to its path)`);
  }
  console.warn(`\n*** SKIPPING the kubectl tests of ${what}: no kubectl at ${KUBECTL} (set KUBECTL to its path) ***\n`);
  return false;
}

/** Sandbox timings short enough for tests (pods run within a fraction of a second). */
export const FAST_SANDBOX_TIMINGS = { scheduleMs: 30, startMs: 80, logIntervalMs: 200, heartbeatMs: 1000, terminationMs: 100 };

/** kubectl with `--kubeconfig` (read when called, as test setup assigns it later); answers stdout. */
export const kubectlWith =
  (kubeconfig: () => string) =>
  async (...args: string[]): Promise<string> => {
    const { stdout } = await runFile(KUBECTL, ['--kubeconfig', kubeconfig(), ...args], { timeout: 20_000 });
    return stdout;
  };

/** Writes `dir/admin.kubeconfig`: the sandbox's admin token, its CA, `namespace` as the default; answers its path. */
export function writeAdminKubeconfig(cluster: { url: string; caPem: string; adminToken: string }, dir: string, namespace: string): string {
  const file = join(dir, 'admin.kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: sandbox, cluster: {server: '${cluster.url}', certificate-authority-data: ${Buffer.from(cluster.caPem).toString('base64')}}}]`,
      `users: [{name: admin, user: {token: '${cluster.adminToken}'}}]`,
      `contexts: [{name: sandbox, context: {cluster: sandbox, user: admin, namespace: ${namespace}}}]`,
      'current-context: sandbox',
      '',
    ].join('\n'),
  );
  return file;
}
