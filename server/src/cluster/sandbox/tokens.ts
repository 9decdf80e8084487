import { randomBytes } from 'node:crypto';
import type { Identity } from './authorization.js';
import type { ApiContext } from './context.js';
import type { Route } from './routing.js';
import { badRequest, invalid, notFound } from './status.js';
import type { KubeObject } from './store.js';

// authentication.k8s.io: TokenRequest (serviceaccounts/{name}/token) and SelfSubjectReview.

/** `kubectl auth whoami`: who the request's credentials are. */
export function selfSubjectReview(identity: Identity) {
  return {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    status: { userInfo: { username: identity.user, groups: identity.groups } },
  };
}

/** An opaque random token for the service account, valid for expirationSeconds (default 3600, at least 600). */
export function tokenRequest({ store, saveSoon }: ApiContext, r: Route, body: KubeObject | undefined): KubeObject {
  const account = store.get('serviceaccounts', r.namespace, r.name!);
  if (!account) throw notFound('serviceaccounts', '', r.name!);
  if (body?.kind && body.kind !== 'TokenRequest') throw badRequest(`the kind of the provided object (${body.kind}) does not match TokenRequest`);
  const seconds = body?.spec?.expirationSeconds ?? 3600;
  if (!Number.isInteger(seconds) || seconds < 600)
    throw invalid('TokenRequest', 'authentication.k8s.io', r.name!, [{ reason: 'FieldValueInvalid', message: 'may not specify a duration less than 10 minutes', field: 'spec.expirationSeconds' }]);
  if (seconds > 2 ** 32)
    throw invalid('TokenRequest', 'authentication.k8s.io', r.name!, [{ reason: 'FieldValueTooLong', message: 'may not specify a duration larger than 2^32 seconds', field: 'spec.expirationSeconds' }]);
  const token = `sandbox-sa.${randomBytes(32).toString('base64url')}`;
  const expiresAt = Date.now() + seconds * 1000;
  store.tokens.set(token, { namespace: r.namespace!, serviceAccount: r.name!, serviceAccountUid: account.metadata.uid!, expiresAt });
  saveSoon();
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: r.name!, namespace: r.namespace, creationTimestamp: null as unknown as string },
    spec: { audiences: body?.spec?.audiences?.length ? body.spec.audiences : ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: seconds, boundObjectRef: body?.spec?.boundObjectRef ?? null },
    status: { token, expirationTimestamp: new Date(expiresAt).toISOString().replace(/\.\d+Z$/, 'Z') },
  };
}
