import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KubeObject, ObjectStore } from './store.js';

// Node joining as kubeadm sets it up on a real cluster: bootstrap tokens stored as Secrets in
// kube-system (the apiserver's bootstrap-token authenticator), the kube-public/cluster-info
// ConfigMap that kubeadm's token discovery reads anonymously, and the BootstrapSigner
// controller's `jws-kubeconfig-<id>` signatures in it. Names and rules follow
// k8s.io/cluster-bootstrap and plugin/pkg/auth/authenticator/token/bootstrap.

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
export const CLUSTER_INFO_PATH = '/api/v1/namespaces/kube-public/configmaps/cluster-info';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** A Secret field as the API stores it (base64 in data), or from stringData when put into the store directly. */
function secretField(secret: KubeObject, key: string): string | undefined {
  const encoded = secret.data?.[key];
  if (typeof encoded === 'string') return Buffer.from(encoded, 'base64').toString('utf8');
  const plain = secret.stringData?.[key];
  return typeof plain === 'string' ? plain : undefined;
}

/** Missing expiration = never expires; unparseable = expired (cluster-bootstrap's GetExpiration). */
function expired(secret: KubeObject, now = Date.now()): boolean {
  const expiration = secretField(secret, 'expiration');
  if (!expiration) return false;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(expiration)) return true;
  const at = Date.parse(expiration);
  return Number.isNaN(at) || at <= now;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface BootstrapTokenUser {
  user: string;
  groups: string[];
  tokenId: string;
}

/**
 * The user a bootstrap token authenticates as, or undefined when it is not a valid one: the
 * Secret `bootstrap-token-<id>` in kube-system must exist (not being deleted), be of type
 * bootstrap.kubernetes.io/token, carry the same token-id and token-secret, allow
 * usage-bootstrap-authentication and not be expired. Extra groups must be system:bootstrappers:*.
 */
export function bootstrapTokenUser(store: ObjectStore, token: string): BootstrapTokenUser | undefined {
  const parts = TOKEN.exec(token);
  if (!parts) return undefined;
  const [, tokenId, tokenSecret] = parts;
  const secret = store.get('secrets', 'kube-system', BOOTSTRAP_TOKEN_SECRET_PREFIX + tokenId);
  if (!secret || secret.metadata.deletionTimestamp || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
  if (secretField(secret, 'token-id') !== tokenId) return undefined;
  const storedSecret = secretField(secret, 'token-secret');
  if (storedSecret === undefined || !sameText(storedSecret, tokenSecret)) return undefined;
  if (secretField(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
  if (expired(secret)) return undefined;
  const extra = (secretField(secret, 'auth-extra-groups') ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  if (extra.some((group) => !EXTRA_GROUP.test(group))) return undefined;
  return { user: `system:bootstrap:${tokenId}`, groups: [...new Set([BOOTSTRAPPERS_GROUP, ...extra])], tokenId };
}

/** The kubeconfig kubeadm puts into cluster-info: one nameless cluster, no users or contexts. */
export function clusterInfoKubeconfig(caPem: string, server: string): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    `    server: ${server}`,
    '  name: ""',
    'contexts: null',
    'current-context: ""',
    'kind: Config',
    'preferences: {}',
    'users: null',
    '',
  ].join('\n');
}

export function clusterInfoConfigMap(caPem: string, server: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-info', namespace: 'kube-public' },
    data: { kubeconfig: clusterInfoKubeconfig(caPem, server) },
  };
}

/**
 * A detached JWS (HS256, key = the whole token "<id>.<secret>", kid = id) over `content`, as
 * the BootstrapSigner computes it: "<protected header>..<signature>".
 */
export function detachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })).toString('base64url');
  const payload = Buffer.from(content).toString('base64url');
  const signature = createHmac('sha256', `${tokenId}.${tokenSecret}`).update(`${header}.${payload}`).digest('base64url');
  return `${header}..${signature}`;
}

const JWS_PREFIX = 'jws-kubeconfig-';

/**
 * The BootstrapSigner's pass: cluster-info gets a `jws-kubeconfig-<id>` entry for every valid
 * token with usage-bootstrap-signing, and loses those of deleted or expired tokens. Writes only
 * when something changed, so an idle pass makes no watch event.
 */
export function signClusterInfo(store: ObjectStore) {
  const clusterInfo = store.get('configmaps', 'kube-public', 'cluster-info');
  const content = clusterInfo?.data?.kubeconfig;
  if (!clusterInfo || typeof content !== 'string') return;
  const wanted: Record<string, string> = {};
  for (const secret of store.list('secrets', 'kube-system')) {
    if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || secret.metadata.deletionTimestamp || expired(secret)) continue;
    const tokenId = secretField(secret, 'token-id');
    const tokenSecret = secretField(secret, 'token-secret');
    if (!tokenId || !tokenSecret || secret.metadata.name !== BOOTSTRAP_TOKEN_SECRET_PREFIX + tokenId) continue;
    if (secretField(secret, 'usage-bootstrap-signing') !== 'true') continue;
    wanted[JWS_PREFIX + tokenId] = detachedSignature(content, tokenId, tokenSecret);
  }
  const data: Record<string, string> = clusterInfo.data;
  const current = Object.fromEntries(Object.entries(data).filter(([key]) => key.startsWith(JWS_PREFIX)));
  const same = Object.keys(current).length === Object.keys(wanted).length && Object.entries(wanted).every(([key, value]) => current[key] === value);
  if (same) return;
  store.modify('configmaps', 'kube-public', 'cluster-info', (configMap) => {
    const kept = Object.fromEntries(Object.entries(configMap.data ?? {}).filter(([key]) => !key.startsWith(JWS_PREFIX)));
    configMap.data = { ...kept, ...wanted };
  });
}

/**
 * The TokenCleaner controller's pass: bootstrap-token Secrets in kube-system whose expiration
 * has passed are deleted (kube-controller-manager does this for kubeadm's tokens). Returns the
 * names deleted.
 */
export function cleanExpiredBootstrapTokens(store: ObjectStore, now = Date.now()): string[] {
  const deleted: string[] = [];
  for (const secret of store.list('secrets', 'kube-system')) {
    if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !expired(secret, now)) continue;
    store.delete('secrets', 'kube-system', secret.metadata.name);
    deleted.push(secret.metadata.name);
  }
  return deleted;
}

