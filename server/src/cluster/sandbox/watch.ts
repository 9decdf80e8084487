import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorize, type Identity } from './authorization.js';
import type { ApiContext } from './context.js';
import { withKind } from './objects.js';
import type { Route } from './routing.js';
import { fieldSelector, labelSelector } from './selectors.js';
import { badRequest, statusBody } from './status.js';
import type { KubeObject, StoreEvent } from './store.js';
import { toTable, wantsTable } from './table.js';

// ?watch=true: a chunked stream of watch events, from the current objects or from a resourceVersion.

export function watch({ store, closers }: ApiContext, r: Route, query: URLSearchParams, req: IncomingMessage, res: ServerResponse, identity: Identity) {
  const byLabel = labelSelector(query.get('labelSelector'));
  const byField = fieldSelector(query.get('fieldSelector'));
  const matchesRoute = (e: { resource: string; object: KubeObject }) =>
    e.resource === r.type.resource &&
    (r.namespace === undefined || e.object.metadata.namespace === r.namespace) &&
    (r.name === undefined || e.object.metadata.name === r.name) &&
    byLabel(e.object) &&
    byField(e.object);
  const table = wantsTable(req.headers.accept);
  const present = (object: KubeObject) =>
    table ? toTable(r.type.resource, [withKind(r.type, object)], object.metadata.resourceVersion, query.get('includeObject')) : withKind(r.type, object);
  const since = query.get('resourceVersion');
  let backlog: { type: string; object: unknown }[];
  if (!since || since === '0') {
    backlog = store.list(r.type.resource, r.namespace).filter((object) => matchesRoute({ resource: r.type.resource, object })).map((object) => ({ type: 'ADDED', object: present(object) }));
  } else {
    if (!/^\d+$/.test(since)) throw badRequest(`invalid resource version: ${since}`);
    const events = store.eventsSince(Number(since));
    if (!events) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'ERROR', object: statusBody(410, 'Expired', `too old resource version: ${since} (${store.resourceVersion})`) }) + '\n');
      return;
    }
    backlog = events.filter(matchesRoute).map((e) => ({ type: e.type, object: present(e.object) }));
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const write = (event: unknown) => res.write(JSON.stringify(event) + '\n');
  for (const event of backlog) write(event);
  const onEvent = (e: StoreEvent) => {
    if (!matchesRoute(e)) return;
    // a service account loses its watch when it loses the right to watch
    if (!identity.admin && !authorize(store, identity, { verb: 'watch', group: r.type.group, resource: r.type.resource, namespace: r.namespace })) return finish();
    write({ type: e.type, object: present(e.object) });
  };
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 1800);
  const timer = setTimeout(() => finish(), Math.min(Math.max(timeoutSeconds, 1), 3600) * 1000);
  timer.unref();
  const finish = () => {
    clearTimeout(timer);
    store.events.off('event', onEvent);
    if (!res.writableEnded) res.end();
  };
  store.events.on('event', onEvent);
  req.once('close', finish);
  res.once('close', finish);
  closers.add(finish);
  res.once('close', () => closers.delete(finish));
}
