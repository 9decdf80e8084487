import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';
import { eventually } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable, kubectlWith, writeAdminKubeconfig } from './kubectl.js';

// What a first-time user applies, with real kubectl against the sandbox and its admin
// kubeconfig: Deployments (ReplicaSets, pods, scale, rollout status, a new ReplicaSet per
// template, cascading deletion), Services, Jobs that complete, PersistentVolumeClaims, the
// protobuf bodies of kubectl's create subcommands, and all of it across a restart.
// sandboxWorkloadsMember.test.ts does the same through a workspace member's kubeconfig.

const haveKubectl = kubectlAvailable('server/test/sandboxWorkloads.test.ts', 'workloads in the sandbox');
const TIMINGS = { ...FAST_SANDBOX_TIMINGS, jobRunMs: 300 };

describe.runIf(haveKubectl)('workloads in the sandbox with kubectl', () => {
  let dir: string;
  let cluster: SandboxCluster;
  let kubeconfig: string;
  const kubectl = kubectlWith(() => kubeconfig);
  const failure = (...args: string[]) => kubectl(...args).then(
    (stdout) => `unexpected success: ${stdout}`,
    (error: { stderr: string }) => error.stderr,
  );
  const json = async (...args: string[]) => JSON.parse(await kubectl(...args, '-o', 'json'));
  const manifest = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  const start = async () => {
    cluster = await startSandboxCluster({ storageDir: dir, port: 0, timings: TIMINGS });
    kubeconfig = writeAdminKubeconfig(cluster, dir, 'apps');
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-workloads-'));
    await start();
  });

  afterAll(async () => {
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a namespace and a deployment with kubectl create (protobuf bodies), whose ReplicaSet and pods roll out', async () => {
    expect(await kubectl('create', 'namespace', 'apps')).toBe('namespace/apps created\n');
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2', '--port=80')).toBe('deployment.apps/web created\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/deployment "web" successfully rolled out/);

    const deployment = await json('get', 'deployment', 'web');
    expect(deployment.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(deployment.status).toMatchObject({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 });
    expect(deployment.status.conditions.map((c: { type: string; status: string; reason: string }) => [c.type, c.status, c.reason])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable'],
      ['Progressing', 'True', 'NewReplicaSetAvailable'],
    ]);

    const [rs] = (await json('get', 'replicasets')).items;
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    const pods = (await json('get', 'pods', '-l', 'app=web')).items;
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.metadata.name.startsWith(`web-${hash}-`)).toBe(true);
      expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true });
      expect(pod.status.phase).toBe('Running');
    }

    expect(await kubectl('get', 'deployments')).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+2\/2\s+2\s+2\s+\d+s\n$/);
    expect(await kubectl('get', 'rs')).toMatch(new RegExp(`^NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+AGE\\nweb-${hash}\\s+2\\s+2\\s+2\\s+\\d+s\\n$`));
    expect(await kubectl('get', 'deploy', '-o', 'wide')).toMatch(/CONTAINERS\s+IMAGES\s+SELECTOR\n.*nginx\s+nginx:1\.27\s+app=web\n/);
  });

  it('scales with kubectl scale (the scale subresource) and waits for it with rollout status', async () => {
    expect(await kubectl('scale', 'deployment', 'web', '--replicas=3')).toBe('deployment.apps/web scaled\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    expect((await json('get', 'pods', '-l', 'app=web')).items.filter((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)).toHaveLength(3);
    expect((await json('get', 'deployment', 'web')).status).toMatchObject({ observedGeneration: 2, replicas: 3, readyReplicas: 3 });
    expect(await kubectl('scale', 'deployment', 'web', '--replicas=1')).toBe('deployment.apps/web scaled\n');
    await eventually(async () => expect((await json('get', 'replicasets')).items[0].status.replicas).toBe(1), { timeoutMs: 10_000 });
  });

  it('rolls out a new ReplicaSet when the image changes (kubectl set image, kubectl apply of a changed manifest) and back to the previous one (kubectl rollout undo)', async () => {
    expect(await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28')).toBe('deployment.apps/web image updated\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    let sets = (await json('get', 'replicasets')).items;
    expect(sets).toHaveLength(2);
    const updated = sets.find((rs: { spec: { replicas: number } }) => rs.spec.replicas === 1);
    expect(updated.spec.template.spec.containers[0]).toMatchObject({ image: 'nginx:1.28', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(updated.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    expect(sets.find((rs: { metadata: { name: string } }) => rs !== updated).spec.replicas).toBe(0);
    await eventually(async () => {
      const images = (await json('get', 'pods', '-l', 'app=web')).items.map((p: { spec: { containers: { image: string }[] } }) => p.spec.containers[0].image);
      expect(images).toEqual(['nginx:1.28']);
    }, { timeoutMs: 10_000 });

    // kubectl apply takes it over and changes the image again (a strategic merge patch)
    const file = (image: string) =>
      manifest('web.yaml', `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: nginx, image: '${image}', ports: [{containerPort: 80}]}]\n`);
    await kubectl('apply', '-f', file('nginx:1.28'));
    expect(await kubectl('apply', '-f', file('nginx:1.29'))).toBe('deployment.apps/web configured\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    sets = (await json('get', 'replicasets')).items;
    expect(sets).toHaveLength(3);
    const newest = sets.find((rs: { metadata: { annotations: Record<string, string> } }) => rs.metadata.annotations['deployment.kubernetes.io/revision'] === '3');
    expect(newest.spec.template.spec.containers[0]).toMatchObject({ image: 'nginx:1.29', ports: [{ containerPort: 80, protocol: 'TCP' }] });

    // kubectl rollout undo brings back the previous template: its ReplicaSet, not a new one
    expect(await kubectl('rollout', 'undo', 'deployment/web')).toBe('deployment.apps/web rolled back\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    sets = (await json('get', 'replicasets')).items;
    expect(sets).toHaveLength(3);
    const back = sets.find((rs: { metadata: { name: string } }) => rs.metadata.name === updated.metadata.name);
    expect(back.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
    expect(back.spec.replicas).toBe(1);
  });

  it('deletes the ReplicaSets and pods of a deleted deployment (ownerReferences, background cascade)', async () => {
    expect(await kubectl('delete', 'deployment', 'web')).toBe('deployment.apps "web" deleted\n');
    await eventually(async () => {
      expect((await json('get', 'replicasets')).items).toEqual([]);
      expect((await json('get', 'pods', '-l', 'app=web')).items).toEqual([]);
    }, { timeoutMs: 10_000 });
  });

  it('stores a service with an allocated cluster IP, and a claim that stays Pending', async () => {
    await kubectl('create', 'service', 'clusterip', 'front', '--tcp=80:8080');
    const service = await json('get', 'service', 'front');
    expect(service.spec).toMatchObject({ type: 'ClusterIP', ports: [{ name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' }], selector: { app: 'front' } });
    expect(service.spec.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(await kubectl('get', 'svc')).toMatch(new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\nfront\\s+ClusterIP\\s+${service.spec.clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+\\d+s\\n$`));

    const claim = manifest('claim.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n');
    expect(await kubectl('apply', '-f', claim)).toBe('persistentvolumeclaim/data created\n');
    expect(await kubectl('get', 'pvc')).toMatch(/^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\ndata\s+Pending\s+<unset>\s+<unset>\s+\d+s\n$/);
  });

  it('runs a job to completion (kubectl create job, kubectl wait --for=condition=complete)', async () => {
    expect(await kubectl('create', 'job', 'hello', '--image=busybox:1.36', '--', 'echo', 'hello')).toBe('job.batch/hello created\n');
    expect(await kubectl('wait', '--for=condition=complete', 'job/hello', '--timeout=20s')).toBe('job.batch/hello condition met\n');
    const job = await json('get', 'job', 'hello');
    expect(job.status).toMatchObject({ succeeded: 1 });
    expect(job.status.completionTime).toBeDefined();
    const [pod] = (await json('get', 'pods', '-l', 'job-name=hello')).items;
    expect(pod.status.phase).toBe('Succeeded');
    expect(pod.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(await kubectl('get', 'jobs')).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nhello\s+Complete\s+1\/1\s+\d+s\s+\d+s\n$/);
    expect(await kubectl('get', 'pod', pod.metadata.name)).toMatch(/0\/1\s+Completed\s+0/);
  });

  it('answers JSON to clients that prefer protobuf, and refuses a protobuf body it cannot decode with a 415 kubectl prints', async () => {
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const url = new URL('/apis/apps/v1/namespaces/apps/deployments', cluster.url);
      const req = request(url, { ca: cluster.caPem, headers: { Authorization: `Bearer ${cluster.adminToken}`, Accept: 'application/vnd.kubernetes.protobuf,application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.body).kind).toBe('DeploymentList');

    // kubectl create quota sends a ResourceQuota in protobuf, a kind the sandbox does not decode
    expect(await failure('create', 'quota', 'q', '--hard=pods=1')).toMatch(/error: failed to create quota: the body of the request was in an unknown format .* \(got application\/vnd\.kubernetes\.protobuf \(cannot decode kind ResourceQuota;/);
  });

  it('keeps deployments, their ReplicaSets and pods, services, claims and jobs across a restart', async () => {
    await kubectl('create', 'deployment', 'kept', '--image=nginx:1.27', '--replicas=2');
    await kubectl('rollout', 'status', 'deployment/kept', '--timeout=20s');
    const before = (await json('get', 'pods', '-l', 'app=kept')).items.map((p: { metadata: { name: string } }) => p.metadata.name).sort();
    await cluster.close();
    await start();
    expect((await json('get', 'deployment', 'kept')).status).toMatchObject({ readyReplicas: 2, availableReplicas: 2 });
    await kubectl('rollout', 'status', 'deployment/kept', '--timeout=20s');
    // the same pods carry on: no new ones were made for them
    expect((await json('get', 'pods', '-l', 'app=kept')).items.map((p: { metadata: { name: string } }) => p.metadata.name).sort()).toEqual(before);
    expect((await json('get', 'service', 'front')).spec.clusterIP).toMatch(/^10\./);
    expect((await json('get', 'pvc', 'data')).status.phase).toBe('Pending');
    expect((await json('get', 'job', 'hello')).status.succeeded).toBe(1);
  });

  it('deletes every workload with its namespace', async () => {
    expect(await kubectl('delete', 'namespace', 'apps')).toBe('namespace "apps" deleted\n');
    for (const resource of ['deployments', 'replicasets', 'pods', 'services', 'jobs', 'persistentvolumeclaims']) {
      expect(cluster.store.list(resource, 'apps'), resource).toEqual([]);
    }
  });
});
