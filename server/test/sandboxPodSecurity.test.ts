import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';

// Pod Security admission in the sandbox API server, over HTTPS as kube-apiserver answers it:
// the enforce level's 403 with the upstream message, the warn level's Warning headers, label
// validation and the warnings when a namespace is labelled over existing pods.

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 };

let storageDir: string;
let cluster: SandboxCluster;

 
type Answer = { status: number; body: any; warnings: string[] };

function api(path: string, options: { method?: string; body?: unknown; contentType?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.url}${path}`,
      {
        method: options.method ?? 'GET',
        ca: cluster.caPem,
        headers: {
          Authorization: `Bearer ${cluster.adminToken}`,
          ...(options.body !== undefined ? { 'Content-Type': options.contentType ?? 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          // Each Warning header on its own (res.headers joins repeated ones with commas).
          const warnings = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1].toLowerCase() === 'warning');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, warnings });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body !== undefined ? JSON.stringify(options.body) : undefined);
  });
}

const LABELS = {
  'pod-security.kubernetes.io/enforce': 'baseline',
  'pod-security.kubernetes.io/enforce-version': 'v1.34',
  'pod-security.kubernetes.io/warn': 'restricted',
  'pod-security.kubernetes.io/warn-version': 'v1.34',
  'pod-security.kubernetes.io/audit': 'restricted',
  'pod-security.kubernetes.io/audit-version': 'v1.34',
};

let counter = 0;
async function namespace(labels: Record<string, string> | undefined = LABELS): Promise<string> {
  const name = `psa-${++counter}`;
  const created = await api('/api/v1/namespaces', { method: 'POST', body: { metadata: { name, labels } } });
  expect(created.status).toBe(201);
  return name;
}

 
const createPod = (ns: string, pod: any, query = '') => api(`/api/v1/namespaces/${ns}/pods${query}`, { method: 'POST', body: pod });
 
const podWith = (name: string, spec: any = {}, container: any = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'x', image: 'busybox', ...container }], ...spec },
});

/** The attack Pod Security stops (docs/security.md): a member's pod with root on the node. */
const hostRoot = (name: string) =>
  podWith(
    name,
    { hostPID: true, hostNetwork: true, nodeName: 'sandbox-node-1', volumes: [{ name: 'root', hostPath: { path: '/' } }] },
    { securityContext: { privileged: true }, volumeMounts: [{ name: 'root', mountPath: '/host' }] },
  );

const RESTRICTED_WARNING =
  'would violate PodSecurity "restricted:v1.34": allowPrivilegeEscalation != false (container "x" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "x" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "x" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "x" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const header = (text: string) => `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), 'sandbox-psa-'));
  cluster = await startSandboxCluster({ storageDir, host: '127.0.0.1', port: 0, timings: FAST, persist: false });
});

afterAll(async () => {
  await cluster?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('Pod Security admission: the enforce level', () => {
  it('refuses a privileged hostPID/hostNetwork/hostPath pod with 403 Forbidden worded as kube-apiserver words it', async () => {
    const ns = await namespace();
    const refused = await createPod(ns, hostRoot('rooted'));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pods "rooted" is forbidden: violates PodSecurity "baseline:v1.34": host namespaces (hostNetwork=true, hostPID=true), ' +
        'hostPath volumes (volume "root"), privileged (container "x" must not set securityContext.privileged=true)',
      reason: 'Forbidden',
      details: { name: 'rooted', kind: 'pods' },
      code: 403,
    });
    expect(cluster.store.get('pods', ns, 'rooted')).toBeUndefined();
    // Not even as a dry run.
    expect((await createPod(ns, hostRoot('rooted'), '?dryRun=All')).status).toBe(403);
  });

  it('admits a plain pod, with the restricted level as Warning headers', async () => {
    const ns = await namespace();
    const created = await createPod(ns, podWith('plain'));
    expect(created.status).toBe(201);
    expect(created.warnings).toEqual([header(RESTRICTED_WARNING)]);
    // A pod that meets restricted gets no warning.
    const hardened = await createPod(
      ns,
      podWith(
        'hardened',
        { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } },
        { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
      ),
    );
    expect(hardened.status).toBe(201);
    expect(hardened.warnings).toEqual([]);
  });

  it('names a generateName pod by its generated name', async () => {
    const ns = await namespace();
    const refused = await createPod(ns, { ...hostRoot(''), metadata: { generateName: 'job-' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^pods "job-[0-9a-f]{5}" is forbidden: violates PodSecurity "baseline:v1\.34": host namespaces/);
  });

  it.each([
    ['capabilities beyond the baseline list', podWith('p', {}, { securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN', 'SYS_ADMIN'] } } }),
      'non-default capabilities (container "x" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)'],
    ['host IPC', podWith('p', { hostIPC: true }), 'host namespaces (hostIPC=true)'],
    ['host ports', podWith('p', {}, { ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 443, hostPort: 443 }] }),
      'hostPort (container "x" uses hostPorts 443, 8080)'],
    ['an unconfined AppArmor profile', podWith('p', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }),
      'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")'],
    ['an unconfined AppArmor annotation', { ...podWith('p'), metadata: { name: 'p', annotations: { 'container.apparmor.security.beta.kubernetes.io/x': 'unconfined' } } },
      'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/x="unconfined"")'],
    ['custom SELinux options', podWith('p', {}, { securityContext: { seLinuxOptions: { type: 'spc_t', user: 'root' } } }),
      'seLinuxOptions (container "x" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)'],
    ['an unmasked /proc', podWith('p', {}, { securityContext: { procMount: 'Unmasked' } }),
      'procMount (container "x" must not set securityContext.procMount to "Unmasked")'],
    ['seccomp Unconfined', podWith('p', { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
      'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")'],
    ['unsafe sysctls', podWith('p', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'kernel.msgmax', value: '1' }] } }),
      'forbidden sysctls (kernel.msgmax)'],
    ['a probe aimed at another host', podWith('p', {}, { livenessProbe: { httpGet: { host: '169.254.169.254', path: '/', port: 80 } } }),
      'probe or lifecycle host (container "x" uses probe or lifecycle host "169.254.169.254")'],
    ['Windows host processes', podWith('p', {}, { securityContext: { windowsOptions: { hostProcess: true } } }),
      'hostProcess (container "x" must not set securityContext.windowsOptions.hostProcess=true)'],
  ])('refuses %s', async (_what, pod, detail) => {
    const ns = await namespace();
    const refused = await createPod(ns, pod);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`pods "p" is forbidden: violates PodSecurity "baseline:v1.34": ${detail}`);
  });

  it('allows what baseline allows: default capabilities, the default /proc, RuntimeDefault seccomp, safe sysctls, init containers', async () => {
    const ns = await namespace();
    const created = await createPod(
      ns,
      podWith(
        'allowed',
        {
          initContainers: [{ name: 'init', image: 'busybox', securityContext: { privileged: false } }],
          securityContext: { seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '60' }] },
          volumes: [{ name: 'scratch', emptyDir: {} }],
        },
        { securityContext: { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'] }, procMount: 'Default', seLinuxOptions: { type: 'container_t' } }, ports: [{ containerPort: 80 }] },
      ),
    );
    expect(created.status).toBe(201);
    // A privileged init container is refused like any other.
    const init = await createPod(ns, podWith('init', { initContainers: [{ name: 'setup', image: 'busybox', securityContext: { privileged: true } }] }));
    expect(init.body.message).toBe('pods "init" is forbidden: violates PodSecurity "baseline:v1.34": privileged (container "setup" must not set securityContext.privileged=true)');
  });

  it('leaves namespaces without the labels privileged, as kube-apiserver’s default configuration does', async () => {
    const ns = await namespace({});
    const created = await createPod(ns, hostRoot('anything'));
    expect(created.status).toBe(201);
    expect(created.warnings).toEqual([]);
  });

  it('evaluates an image update of a pod made before the labels, and lets other updates through', async () => {
    const ns = await namespace({});
    expect((await createPod(ns, hostRoot('old'))).status).toBe(201);
    const labelled = await api(`/api/v1/namespaces/${ns}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: LABELS } },
    });
    expect(labelled.status).toBe(200);
    // kube-apiserver's warning when a stricter enforce level meets existing pods.
    expect(labelled.warnings).toEqual([
      header(`existing pods in namespace "${ns}" violate the new PodSecurity enforce level "baseline:v1.34"`),
      header('old: host namespaces, hostPath volumes, privileged'),
    ]);
    const relabel = await api(`/api/v1/namespaces/${ns}/pods/old`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { tier: 'x' } } },
    });
    expect(relabel.status).toBe(200);
    const newImage = await api(`/api/v1/namespaces/${ns}/pods/old`, {
      method: 'PATCH',
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.37' }],
    });
    expect(newImage.status).toBe(403);
    expect(newImage.body.message).toMatch(/^pods "old" is forbidden: violates PodSecurity "baseline:v1\.34": host namespaces/);
  });

  it('refuses bad Pod Security labels with 422 Invalid', async () => {
    const refused = await api('/api/v1/namespaces', {
      method: 'POST',
      body: { metadata: { name: 'psa-bad', labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': '1.34' } } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.34": must be "latest" or "v1.x"',
    );
  });

  it('applies the policy of the pinned version: a v1.33 pin has no probe host check yet', async () => {
    const ns = await namespace({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.33' });
    const probe = podWith('probe', {}, { livenessProbe: { tcpSocket: { host: '10.0.0.1', port: 22 } } });
    expect((await createPod(ns, probe)).status).toBe(201);
    const refused = await createPod(ns, { ...hostRoot('h') });
    expect(refused.body.message).toMatch(/violates PodSecurity "baseline:v1\.33": /);
  });
});
