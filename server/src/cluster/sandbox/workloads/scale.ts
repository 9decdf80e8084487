import type { IncomingMessage } from 'node:http';
import type { ApiContext } from '../context.js';
import { getObject } from '../objects.js';
import { jsonPatch, mergePatch } from '../patches.js';
import type { Route } from '../routing.js';
import { badRequest, conflict, notFound, unsupportedMediaType } from '../status.js';
import type { KubeObject } from '../store.js';
import { readBody } from '../wire.js';
import { selectorString } from './common.js';

// The scale subresource of Deployments and ReplicaSets (autoscaling/v1 Scale): what
// `kubectl scale` reads and writes. Writing it changes spec.replicas and nothing else.

export function scaleOf(object: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: object.spec?.replicas ?? 0 },
    status: { replicas: object.status?.replicas ?? 0, selector: selectorString(object.spec?.selector) },
  };
}

/** GET, PUT or PATCH of `<deployments|replicasets>/<name>/scale`. */
export async function scaleRequest(context: ApiContext, r: Route, verb: string, req: IncomingMessage): Promise<KubeObject> {
  const current = getObject(context, r);
  if (verb === 'get') return scaleOf(current);
  let wanted: KubeObject;
  if (verb === 'update') {
    wanted = (await readBody(req)) as KubeObject;
  } else {
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const body = await readBody(req);
    if (contentType === 'application/merge-patch+json' || contentType === 'application/strategic-merge-patch+json') wanted = mergePatch(scaleOf(current), body) as KubeObject;
    else if (contentType === 'application/json-patch+json') wanted = jsonPatch(scaleOf(current), body);
    else throw unsupportedMediaType(contentType || 'none');
  }
  const replicas = wanted?.spec?.replicas;
  if (!Number.isInteger(replicas) || replicas < 0) throw badRequest(`spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`);
  const expected = verb === 'update' ? wanted.metadata?.resourceVersion : undefined;
  if (expected && expected !== current.metadata.resourceVersion) {
    throw conflict(r.type.resource, r.type.group, r.name!, `Operation cannot be fulfilled on ${r.type.resource}.${r.type.group} "${r.name}": the object has been modified; please apply your changes to the latest version and try again`);
  }
  const updated = context.store.modify(r.type.resource, r.namespace, r.name!, (o) => {
    if (o.spec.replicas !== replicas) {
      o.spec.replicas = replicas;
      o.metadata.generation = Number(o.metadata.generation ?? 1) + 1;
    }
  });
  if (!updated) throw notFound(r.type.resource, r.type.group, r.name!);
  return scaleOf(updated);
}
