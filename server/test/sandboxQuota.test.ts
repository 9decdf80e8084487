import { describe, expect, it } from 'vitest';
import { applyLimitRangeDefaults, defaultRequestsFromLimits } from '../src/cluster/sandbox/limitRanger.js';
import { canonicalQuantity, formatQuantity, formatResourceList, parseQuantity, parseResourceList } from '../src/cluster/sandbox/quantity.js';
import { missingPodResources, podUsage, quotaRefusal, usageOf, type QuotaInForce } from '../src/cluster/sandbox/resourceQuota.js';
import { RESOURCES } from '../src/cluster/sandbox/resources.js';
import type { KubeObject } from '../src/cluster/sandbox/store.js';

// The sandbox's quota and limit-range admission as plain functions: quantities as the API server
// prints them, the pod and object-count usage, the refusals worded as kube-apiserver words them,
// and LimitRanger's defaults.

const type = (resource: string) => RESOURCES.find((t) => t.resource === resource)!;
const pod = (name: string, containers: Record<string, any>[], extra: Partial<KubeObject> = {}): KubeObject => ({ metadata: { name }, spec: { containers }, ...extra });
const container = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({ name, image: 'nginx', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });
const quota = (name: string, hard: Record<string, string>, used: Record<string, string>): QuotaInForce => ({ name, hard: parseResourceList(hard), used: parseResourceList(used) });

describe('quantities', () => {
  it('print back in the canonical form', () => {
    expect(canonicalQuantity('0.5')).toBe('500m');
    expect(canonicalQuantity('1000m')).toBe('1');
    expect(canonicalQuantity('1024Mi')).toBe('1Gi');
    expect(canonicalQuantity('1.5Gi')).toBe('1536Mi');
    expect(canonicalQuantity('2000')).toBe('2k');
    expect(canonicalQuantity('1500')).toBe('1500');
    expect(canonicalQuantity('100Mi')).toBe('100Mi');
    expect(canonicalQuantity('1e3')).toBe('1k');
    expect(parseQuantity('abc')).toBeUndefined();
    expect(formatQuantity({ nanos: 0n, format: 'BinarySI' })).toBe('0');
  });
});

describe('usage', () => {
  it('counts a pod’s requests and limits, and only count/pods once it ended', () => {
    const running = pod('a', [container('a', { cpu: '100m', memory: '128Mi' }, { cpu: '500m', memory: '512Mi' }), container('b', { cpu: '250m' })]);
    expect(formatResourceList(podUsage(running))).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '350m',
      'requests.cpu': '350m',
      'limits.cpu': '500m',
      memory: '128Mi',
      'requests.memory': '128Mi',
      'limits.memory': '512Mi',
    });
    expect(formatResourceList(podUsage({ ...running, status: { phase: 'Succeeded' } }))).toEqual({ 'count/pods': '1' });
    expect(formatResourceList(podUsage({ ...running, status: { phase: 'Failed' } }))).toEqual({ 'count/pods': '1' });
    const lapsed = { ...running, metadata: { name: 'a', deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 1 } };
    expect(formatResourceList(podUsage(lapsed))).toEqual({ 'count/pods': '1' });
  });

  it('sums over the namespace, zero where nothing counts', () => {
    const objects = [
      { type: type('pods'), object: pod('a', [container('a', { cpu: '100m', memory: '128Mi' })]) },
      { type: type('pods'), object: pod('b', [container('b', { cpu: '100m', memory: '128Mi' })]) },
      { type: type('pods'), object: pod('c', [container('c', { cpu: '100m', memory: '128Mi' })], { status: { phase: 'Succeeded' } }) },
      { type: type('configmaps'), object: { metadata: { name: 'x' } } },
    ];
    const used = usageOf(['pods', 'count/pods', 'requests.cpu', 'requests.memory', 'count/configmaps', 'configmaps', 'services', 'requests.storage', 'count/roles.rbac.authorization.k8s.io'], objects);
    expect(formatResourceList(used)).toEqual({
      pods: '2',
      'count/pods': '3',
      'requests.cpu': '200m',
      'requests.memory': '256Mi',
      'count/configmaps': '1',
      configmaps: '1',
      services: '0',
      'requests.storage': '0',
      'count/roles.rbac.authorization.k8s.io': '0',
    });
  });
});

describe('quota admission', () => {
  it('refuses a pod beyond pods with the upstream wording', () => {
    const refusal = quotaRefusal([quota('q', { pods: '3' }, { pods: '3' })], type('pods'), pod('web', [container('web')]));
    expect(refusal).toBe('exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3');
  });

  it('names every exceeded resource, sorted, and admits what fits', () => {
    const hard = { pods: '10', 'requests.cpu': '1', 'limits.cpu': '2' };
    const web = pod('web', [container('web', { cpu: '600m' }, { cpu: '1' })]);
    expect(quotaRefusal([quota('q', hard, { pods: '1', 'requests.cpu': '500m', 'limits.cpu': '1500m' })], type('pods'), web)).toBe(
      'exceeded quota: q, requested: limits.cpu=1,requests.cpu=600m, used: limits.cpu=1500m,requests.cpu=500m, limited: limits.cpu=2,requests.cpu=1',
    );
    expect(quotaRefusal([quota('q', hard, { pods: '1', 'requests.cpu': '400m', 'limits.cpu': '1' })], type('pods'), web)).toBeNull();
  });

  it('checks the quotas in order and stops at the first refusal', () => {
    const quotas = [quota('a', { pods: '5' }, { pods: '1' }), quota('b', { 'count/pods': '1' }, { 'count/pods': '1' })];
    expect(quotaRefusal(quotas, type('pods'), pod('web', [container('web')]))).toBe('exceeded quota: b, requested: count/pods=1, used: count/pods=1, limited: count/pods=1');
  });

  it('requires requests and limits where the quota constrains them, per container', () => {
    const hard = { 'requests.cpu': '8', 'limits.cpu': '16', 'requests.memory': '16Gi', pods: '50' };
    const web = pod('web', [container('web', { cpu: '100m' }), container('side', { cpu: '100m', memory: '1Gi' }, { cpu: '1' })]);
    expect(missingPodResources(web, Object.keys(hard))).toBe('must specify limits.cpu for: web; requests.memory for: web');
    expect(quotaRefusal([quota('testbed-quota', hard, {})], type('pods'), web)).toBe('failed quota: testbed-quota: must specify limits.cpu for: web; requests.memory for: web');
    expect(missingPodResources(web, ['pods'])).toBeNull();
  });

  it('counts other objects under count/… and the legacy names', () => {
    const full = quota('q', { 'count/configmaps': '2', configmaps: '5' }, { 'count/configmaps': '2', configmaps: '2' });
    expect(quotaRefusal([full], type('configmaps'), { metadata: { name: 'x' } })).toBe('exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2');
    expect(quotaRefusal([full], type('secrets'), { metadata: { name: 'x' } })).toBeNull();
  });

  it('counts a claim’s requested storage under requests.storage, as the claim evaluator does', () => {
    const claim = (name: string, storage: string): KubeObject => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
    const used = usageOf(['requests.storage', 'persistentvolumeclaims', 'count/persistentvolumeclaims'], [
      { type: type('persistentvolumeclaims'), object: claim('a', '512Mi') },
      { type: type('persistentvolumeclaims'), object: claim('b', '256Mi') },
    ]);
    expect(formatResourceList(used)).toEqual({ 'requests.storage': '768Mi', persistentvolumeclaims: '2', 'count/persistentvolumeclaims': '2' });
    const storage = quota('testbed-quota', { 'requests.storage': '1Gi' }, { 'requests.storage': '768Mi' });
    expect(quotaRefusal([storage], type('persistentvolumeclaims'), claim('c', '512Mi'))).toBe(
      'exceeded quota: testbed-quota, requested: requests.storage=512Mi, used: requests.storage=768Mi, limited: requests.storage=1Gi',
    );
    expect(quotaRefusal([storage], type('persistentvolumeclaims'), claim('d', '256Mi'))).toBeNull();
    // Pods do not consume it.
    expect(quotaRefusal([quota('full', { 'requests.storage': '1Gi' }, { 'requests.storage': '1Gi' })], type('pods'), pod('p', [container('p')]))).toBeNull();
  });
});

describe('LimitRanger defaults', () => {
  const limitRange = { metadata: { name: 'testbed-limits' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] } };

  it('fills in what a container leaves out and says so in the annotation', () => {
    const web = pod('web', [{ name: 'web', image: 'nginx' }, container('side', { memory: '1Gi' })]);
    applyLimitRangeDefaults([limitRange], web);
    expect(web.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } });
    expect(web.spec.containers[1].resources).toEqual({ requests: { memory: '1Gi', cpu: '100m' }, limits: { cpu: '500m', memory: '512Mi' } });
    expect(web.metadata.annotations?.['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web; cpu request for container side; cpu, memory limit for container side',
    );
  });

  it('leaves a pod alone without a LimitRange, and requests default to limits first', () => {
    const web = pod('web', [container('web', undefined, { cpu: '1' })]);
    defaultRequestsFromLimits(web);
    applyLimitRangeDefaults([], web);
    expect(web.spec.containers[0].resources).toEqual({ requests: { cpu: '1' }, limits: { cpu: '1' } });
    expect(web.metadata.annotations).toBeUndefined();
  });
});
