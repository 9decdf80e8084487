import * as models from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownFields } from '../src/cluster/sandbox/fieldValidation.js';
import { openApiDocument, openApiIndex, schemaNameOf } from '../src/cluster/sandbox/openapi.js';
import { RESOURCES } from '../src/cluster/sandbox/resources.js';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';
import { FAST_SANDBOX_TIMINGS, KUBECTL, kubectlAvailable, kubectlWith, writeAdminKubeconfig, runFile } from './kubectl.js';

// The OpenAPI v3 documents and the v2 one the sandbox serves (built from @kubernetes/client-node's
// models), and the server-side field validation they announce: kubectl apply and create -f work
// without --validate=false, a misspelt field is refused by name, --validate=warn and =false behave
// as against kube-apiserver, List files are checked client-side, and kubectl explain reads both.

type Document = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; 'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string } }>>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; 'x-kubernetes-group-version-kind'?: unknown[] }> };
};
const documentOf = (path: string) => JSON.parse(openApiDocument(path)) as Document;

describe('the OpenAPI v3 documents', () => {
  it('index one document per group-version the sandbox serves, addressed by a hash of its text', () => {
    const index = openApiIndex().paths;
    const expected = [...new Set(RESOURCES.map((r) => (r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`)))].sort();
    expect(Object.keys(index).sort()).toEqual(expected);
    expect(index['apis/apps/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{64}$/);
  });

  it('declare fieldValidation on the create, update and patch of every kind, with its group, version and kind', () => {
    for (const type of RESOURCES.filter((r) => r.verbs.includes('patch'))) {
      const document = documentOf(type.group ? `apis/${type.group}/${type.version}` : `api/${type.version}`);
      const path = `/${type.group ? `apis/${type.group}` : 'api'}/${type.version}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.resource}/{name}`;
      const patch = document.paths[path]?.patch;
      expect(patch?.['x-kubernetes-group-version-kind'], path).toEqual({ group: type.group, version: type.version, kind: type.kind });
      expect(patch?.parameters).toContainEqual(expect.objectContaining({ name: 'fieldValidation', in: 'query' }));
      expect(document.paths[path.replace('/{name}', '')].post?.parameters).toContainEqual(expect.objectContaining({ name: 'fieldValidation' }));
    }
  });

  it('take every schema from the client models, and every reference resolves within its document', () => {
    const document = documentOf('apis/apps/v1');
    const deployment = document.components.schemas['v1.Deployment'];
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
    expect(Object.keys(document.components.schemas['v1.DeploymentSpec'].properties).sort()).toEqual(
      models.V1DeploymentSpec.getAttributeTypeMap().map((a) => a.baseName).sort(),
    );
    expect(document.components.schemas['v1.DeploymentSpec'].properties.replicas).toEqual({ type: 'integer', format: 'int32' });
    for (const path of Object.keys(openApiIndex().paths)) {
      const text = openApiDocument(path);
      const schemas = documentOf(path).components.schemas;
      for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(schemas[name], `${path}: ${name}`).toBeDefined();
    }
  });

  it('name schemas as Kubernetes does, after the model they come from', () => {
    expect(schemaNameOf('V1DeploymentSpec')).toBe('v1.DeploymentSpec');
    expect(schemaNameOf('CoreV1ResourceClaim')).toBe('core.v1.ResourceClaim');
    expect(schemaNameOf('AuthenticationV1TokenRequest')).toBe('authentication.v1.TokenRequest');
    expect(schemaNameOf('V1beta1Foo')).toBe('v1beta1.Foo');
  });
});

describe('unknown fields', () => {
  it('are found by path under objects, lists and maps; patch directives are not fields', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labelz: {}, labels: { anything: 'goes' } },
      spec: {
        replica: 2,
        $retainKeys: ['strategy'],
        template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', imagePullPolcy: 'Always', resources: { limits: { cpu: '1' } } }] } },
      },
    };
    expect(unknownFields('V1Deployment', deployment)).toEqual(['metadata.labelz', 'spec.replica', 'spec.template.spec.containers[1].imagePullPolcy']);
    expect(unknownFields('V1ConfigMap', { data: { a: 'b' }, '$setElementOrder/data': [] })).toEqual([]);
  });
});

const haveKubectl = kubectlAvailable('server/test/sandboxOpenApi.test.ts', 'OpenAPI and field validation');

describe.runIf(haveKubectl)('kubectl against the documents and the field validation', () => {
  let dir: string;
  let cluster: SandboxCluster;
  let kubeconfig: string;
  const kubectl = kubectlWith(() => kubeconfig);
  const failure = (...args: string[]) => kubectl(...args).then((stdout) => `unexpected success: ${stdout}`, (error: { stderr: string }) => error.stderr);
  const manifest = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const deployment = (name: string, extra = '') =>
    manifest(`${name}.yaml`, `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  replicas: 1${extra}\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers: [{name: nginx, image: nginx:1.27}]\n`);
  const post = (path: string, body: unknown) =>
    new Promise<{ status: number; warning?: string; body: string }>((resolve, reject) => {
      const text = JSON.stringify(body);
      const req = request(`${cluster.url}${path}`, { method: 'POST', ca: cluster.caPem, headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': 'application/json' } }, (res) => {
        let answer = '';
        res.on('data', (chunk) => (answer += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, warning: res.headers.warning as string | undefined, body: answer }));
      });
      req.on('error', reject);
      req.end(text);
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-openapi-'));
    cluster = await startSandboxCluster({ storageDir: dir, port: 0, timings: FAST_SANDBOX_TIMINGS });
    kubeconfig = writeAdminKubeconfig(cluster, dir, 'docs');
    await kubectl('create', 'namespace', 'docs');
  });

  afterAll(async () => {
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies and creates from files without --validate=false', async () => {
    expect(await kubectl('apply', '-f', deployment('web'))).toBe('deployment.apps/web created\n');
    expect(await kubectl('apply', '-f', deployment('web'))).toBe('deployment.apps/web unchanged\n');
    expect(await kubectl('create', '-f', manifest('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n'))).toBe('configmap/settings created\n');
  });

  it('refuses a misspelt field by name on create and on apply, as kube-apiserver does under Strict', async () => {
    expect(await failure('create', '-f', deployment('typo', '\n  replica: 2'))).toBe(
      `Error from server (BadRequest): error when creating "${join(dir, 'typo.yaml')}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"\n`,
    );
    expect(await failure('apply', '-f', deployment('web', '\n  replica: 2'))).toContain('strict decoding error: unknown field "spec.replica"');
    expect(JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')).spec.replica).toBeUndefined();
  });

  it('warns under --validate=warn and lets the field through under --validate=false', async () => {
    const warned = await kubectlWithStderr('apply', '-f', deployment('web', '\n  replica: 2'), '--validate=warn');
    expect(warned.stderr).toContain('Warning: unknown field "spec.replica"');
    expect(warned.stdout).toBe('deployment.apps/web configured\n');
    expect(await kubectl('create', '-f', deployment('loose', '\n  replica: 2'), '--validate=false')).toBe('deployment.apps/loose created\n');
  });

  it('warns other clients that send no directive, and refuses an unknown directive', async () => {
    const warned = await post('/api/v1/namespaces/docs/configmaps', { metadata: { name: 'warned' }, date: { a: 'b' } });
    expect(warned.status).toBe(201);
    expect(warned.warning).toBe('299 - "unknown field \\"date\\""');
    const refused = await post('/api/v1/namespaces/docs/configmaps?fieldValidation=Loud', { metadata: { name: 'refused' } });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).message).toBe('fieldValidation parameter unsupported: "Loud"');
  });

  it('checks the objects of a List file against the v2 document (protobuf) before creating them', async () => {
    const list = (items: unknown[]) => manifest('list.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed' }, data: { a: 'b' } };
    expect(await kubectl('create', '-f', list([configMap]))).toBe('configmap/listed created\n');
    const wrong = [
      { ...configMap, metadata: { name: 'misspelt' }, date: { a: 'b' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'two', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 1 } } }] } } } },
    ];
    const refused = await failure('create', '-f', list(wrong));
    expect(refused).toContain('ValidationError(ConfigMap): unknown field "date" in v1.ConfigMap');
    expect(refused).toContain('ValidationError(Deployment.spec.replicas): invalid type for v1.DeploymentSpec.replicas: got "string", expected "integer"');
    // a quantity written as a number is not an error (limits.cpu: 1), as against kube-apiserver
    expect(refused).not.toContain('cpu');
    expect((await failure('get', 'configmap', 'misspelt'))).toContain('NotFound');
  });

  it('explains kinds and fields from the schemas', async () => {
    const explained = await kubectl('explain', 'deployment.spec.replicas');
    expect(explained).toMatch(/GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: replicas <integer>/);
    expect(await kubectl('explain', 'pods.spec.containers.ports')).toContain('FIELD: ports <[]ContainerPort>');
    expect(await kubectl('explain', 'deployment.spec.strategy', '--output=plaintext-openapiv2')).toMatch(/KIND:\s+Deployment\nVERSION:\s+apps\/v1\n\nRESOURCE: strategy <Object>[\s\S]*rollingUpdate\t<Object>/);
  });

  const kubectlWithStderr = (...args: string[]) => runFile(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 });
});
