import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../scripts/server-node-flags.mjs';
import { KUBECTL, kubectlAvailable, runFile } from './kubectl.js';

// The image and the manifests of docs/deploy.md, checked without a real cluster or Docker:
// the Dockerfile linted, the Kustomize overlay rendered by kubectl and every object validated
// against the Kubernetes OpenAPI schemas (kubernetes-models), and the console's ClusterRole
// compared with the calls the cluster gateway makes.

const root = join(import.meta.dirname, '..', '..');
type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [key: string]: unknown };
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };

/** The schema-checking model of each kind the manifests hold (kubernetes-models). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};

function validateManifest(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}: add it to MODELS`);
  new Model(manifest as never).validate();
}

describe('Dockerfile', () => {
  it('lints clean, runs as non-root node, checks /livez and starts the compiled server', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const problems = validateDockerfile(dockerfile).map((diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
    expect(problems).toEqual([]);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/--omit=dev/);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/livez/m);
    expect(dockerfile).toMatch(
      /^CMD \["node", "--enable-source-maps", "--max-semi-space-size=2", "--max-old-space-size=1024", "build\/server\/main\.js"\]$/m,
    );
    // The image runs the server with the same V8 flags as `npm start` (memory: docs/benchmarks.md).
    const startFlags = serverNodeFlags.map((flag) => JSON.stringify(flag)).join(', ');
    const imageFlags = /^CMD \["node", (.*), "build\/server\/main\.js"\]$/m.exec(dockerfile)?.[1];
    expect(startFlags).toBe(imageFlags);
    expect(dockerfile).not.toMatch(/tsx/);
  });

  it('builds with Docker where Docker exists', async () => {
    let docker = true;
    try {
      execFileSync('docker', ['version'], { stdio: 'ignore' });
    } catch {
      docker = false;
    }
    if (!docker) {
      // Not silent: the reason is printed; the lint above still ran.
      console.warn('\n*** Dockerfile: no docker on this machine, so the image is not built here (the lint ran). ***\n');
      return;
    }
    await runFile('docker', ['build', '-t', 'testbed-console:test', root], { timeout: 900_000 });
  }, 900_000);
});

describe('Kustomize manifests (deploy/)', () => {
  const available = kubectlAvailable('server/test/deploy.test.ts', 'the deploy manifests');
  let manifests: Manifest[] = [];
  const find = (kind: string, name: string) => manifests.find((item) => item.kind === kind && item.metadata.name === name);

  beforeAll(async () => {
    if (!available) return;
    const { stdout } = await runFile(KUBECTL, ['kustomize', join(root, 'deploy', 'overlays', 'external-postgresql')], { timeout: 60_000 });
    manifests = parseAllDocuments(stdout).map((document) => document.toJSON() as Manifest);
  });

  it.runIf(available)('render into valid Kubernetes objects', () => {
    const kinds = manifests.map((item) => `${item.kind}/${item.metadata.name}`).sort();
    expect(kinds).toEqual(
      [
        'ClusterRole/testbed-console',
        'ClusterRoleBinding/testbed-console',
        'ConfigMap/testbed-console',
        'Deployment/testbed-console',
        'Ingress/testbed-console',
        'Namespace/testbed-console',
        'PodDisruptionBudget/testbed-console',
        'Role/testbed-console-bootstrap-tokens',
        'RoleBinding/testbed-console-bootstrap-tokens',
        'Service/testbed-console',
        'ServiceAccount/testbed-console',
      ].sort(),
    );
    for (const manifest of manifests) expect(() => validateManifest(manifest), `${manifest.kind}/${manifest.metadata.name}`).not.toThrow();
    // The schemas do catch mistakes: a replica count as text, a probe without a port.
    const deployment = structuredClone(find('Deployment', 'testbed-console')) as any;
    deployment.spec.replicas = 'three';
    expect(() => validateManifest(deployment)).toThrow();
    const probeless = structuredClone(find('Deployment', 'testbed-console')) as any;
    delete probeless.spec.template.spec.containers[0].readinessProbe.httpGet.port;
    expect(() => validateManifest(probeless)).toThrow();
  });

  it.runIf(available)('run N replicas that probe /livez and /readyz, take secrets from a Secret and drain on SIGTERM', () => {
    const deployment = find('Deployment', 'testbed-console') as any;
    expect(deployment.spec.replicas).toBe(3);
    const container = deployment.spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/livez');
    const fromSecret = container.env.filter((variable: any) => variable.valueFrom?.secretKeyRef?.name === 'testbed-console').map((variable: any) => variable.name);
    expect(fromSecret.sort()).toEqual(['APP_KEY', 'DATABASE_URL', 'MAIL_URL', 'METRICS_TOKEN']);
    expect(container.env).toContainEqual({ name: 'NODE_ENV', value: 'production' });
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(10);
    expect(container.image).toBe('registry.example.org/testbed/console:0.1.0');
    // The overlay's host reaches the ingress and the console's settings.
    const ingress = find('Ingress', 'testbed-console') as any;
    expect(ingress.spec.rules[0].host).toBe('console.testbed.example.org');
    const paths = ingress.spec.rules[0].http.paths.map((path: any) => [path.path, path.backend.service.port.name]);
    expect(paths).toEqual([
      ['/app/', 'realtime'],
      ['/', 'http'],
    ]);
    const config = (find('ConfigMap', 'testbed-console') as any).data;
    expect(config).toMatchObject({ APP_URL: 'https://console.testbed.example.org', REVERB_HOST: 'console.testbed.example.org', REVERB_PUBLIC_PORT: '443', REVERB_SCHEME: 'https' });
    expect((find('PodDisruptionBudget', 'testbed-console') as any).spec.minAvailable).toBe(1);
  });

  it.runIf(available)('keep /metrics off the Ingress: its own port, reached in the cluster only, with the token', () => {
    const deployment = find('Deployment', 'testbed-console') as any;
    const container = deployment.spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((variable: any) => [variable.name, variable]));
    // The server serves /metrics on METRICS_PORT only (404 on the http port), and production
    // answers it only to the bearer of METRICS_TOKEN (from the Secret; 404 without one).
    expect(env.NODE_ENV.value).toBe('production');
    const metricsPort = container.ports.find((port: any) => port.name === 'metrics');
    expect(env.METRICS_PORT?.value).toBe(String(metricsPort?.containerPort));
    expect(container.ports.map((port: any) => port.containerPort)).toEqual([...new Set(container.ports.map((port: any) => port.containerPort))]);
    expect(env.METRICS_TOKEN.valueFrom.secretKeyRef).toMatchObject({ name: 'testbed-console', key: 'METRICS_TOKEN' });
    const service = find('Service', 'testbed-console') as any;
    const serviceMetrics = service.spec.ports.find((port: any) => port.targetPort === 'metrics');
    expect(serviceMetrics).toBeDefined();
    // No Ingress rule reaches the metrics port, by name or by number, nor names /metrics.
    const ingresses = manifests.filter((item) => item.kind === 'Ingress') as any[];
    expect(ingresses.length).toBeGreaterThan(0);
    for (const ingress of ingresses) {
      const backends = [ingress.spec.defaultBackend, ...ingress.spec.rules.flatMap((rule: any) => rule.http.paths.map((path: any) => path.backend))].filter(Boolean);
      for (const backend of backends) {
        const port = backend.service.port;
        expect(port.name ?? port.number).not.toBe('metrics');
        expect([serviceMetrics.port, serviceMetrics.name]).not.toContain(port.number ?? port.name);
        expect(['http', 'realtime']).toContain(port.name);
      }
      const paths = ingress.spec.rules.flatMap((rule: any) => rule.http.paths.map((path: any) => path.path));
      expect(paths.filter((path: string) => path.startsWith('/metrics'))).toEqual([]);
    }
    // The example Secret has the key, so nobody forgets it.
    expect(readFileSync(join(root, 'deploy', 'overlays', 'external-postgresql', 'secrets.env.example'), 'utf8')).toMatch(/^METRICS_TOKEN=/m);
  });

  it.runIf(available)('grant the console exactly the cluster calls its gateway makes', () => {
    const rules = (find('ClusterRole', 'testbed-console') as unknown as { rules: Rule[] }).rules;
    const bootstrap = (find('Role', 'testbed-console-bootstrap-tokens') as unknown as { metadata: { namespace: string }; rules: Rule[] });
    expect(bootstrap.metadata.namespace).toBe('kube-system');
    const granted = new Set<string>();
    for (const rule of [...rules, ...bootstrap.rules]) {
      if (rule.resourceNames) continue;
      for (const resource of rule.resources) for (const verb of rule.verbs) granted.add(`${resource} ${verb}`);
    }

    // What the gateway calls: @kubernetes/client-node methods (createNamespacedResourceQuota…),
    // watches by path, and pod logs.
    const files = ['kubernetesGateway.ts', 'kubernetesCalls.ts', 'kubernetesWorkspace.ts', 'kubernetesQuota.ts', 'kubernetesAccess.ts', 'kubernetesPods.ts', 'kubernetesNodes.ts'];
    // Every part of the gateway is read: a new kubernetes*.ts file must be listed here.
    expect(readdirSync(join(root, 'server', 'src', 'cluster')).filter((file) => /^kubernetes\w*\.ts$/.test(file)).sort()).toEqual([...files].sort());
    const sources = files.map((file) => readFileSync(join(root, 'server', 'src', 'cluster', file), 'utf8')).join('\n');
    const VERBS: Record<string, string> = { create: 'create', read: 'get', replace: 'update', delete: 'delete', list: 'list', patch: 'patch' };
    const plural = (kind: string) => {
      const lower = kind.toLowerCase();
      return lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
    };
    const used = new Set<string>();
    // (`listPodForAllNamespaces`: the list of pods, cluster-wide, which a ClusterRole grants.)
    for (const [, verb, kind] of sources.matchAll(/\b(?:core|rbac|networking)\.(create|read|replace|delete|list|patch)(?:Namespaced)?(\w+?)(?:ForAllNamespaces)?\(/g)) {
      const resource = kind === 'ServiceAccountToken' ? 'serviceaccounts/token' : plural(kind);
      used.add(`${resource} ${VERBS[verb]}`);
    }
    for (const [, resource] of sources.matchAll(/new Watch\(kc\)\.watch\(\s*`?'?\/api\/v1\/(?:namespaces\/\$\{[^}]+\}\/)?(\w+)/g)) used.add(`${resource} watch`);
    if (/new Log\(kc\)\.log\(/.test(sources)) used.add('pods/log get');

    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((call) => !granted.has(call)), 'calls the role does not grant').toEqual([]);
    expect([...granted].filter((grant) => !used.has(grant)), 'grants nothing calls').toEqual([]);
    // Binding and writing the two workspace roles, and nothing else, without holding their rights.
    expect(rules.filter((rule) => rule.resourceNames)).toEqual([
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
        resourceNames: ['testbed-workspace-manager', 'testbed-workspace-member'],
        verbs: ['bind', 'escalate'],
      },
    ]);
  });
});
