import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext } from './context.js';
import type { Route } from './routing.js';
import { badRequest } from './status.js';
import type { KubeObject } from './store.js';

// Pods: what an update may change, graceful deletion, and the log subresource. Scheduling and
// containers are the runtime's (runtime.ts); Pod Security admission is podSecurity.ts.

/** An update keeps the pod's status and spec, except the containers' images (the mutable part). */
export function podUpdate(current: KubeObject, object: KubeObject) {
  object.status = current.status; // status belongs to the status subresource
  object.spec = { ...current.spec, containers: current.spec.containers.map((c: KubeObject, i: number) => ({ ...c, image: object.spec?.containers?.[i]?.image ?? c.image })) };
}

/**
 * Deletes a pod: a running one is Terminating for the grace period (unless gracePeriodSeconds=0),
 * then gone; others go at once.
 */
export function deletePod(
  { store, runtime }: ApiContext,
  r: Route,
  query: URLSearchParams,
  options: KubeObject | undefined,
  current: KubeObject,
  erase: () => KubeObject,
): KubeObject {
  const name = r.name!;
  if (current.metadata.deletionTimestamp) return current;
  const requested = query.get('gracePeriodSeconds') ?? options?.gracePeriodSeconds;
  const graceMs = requested !== undefined && requested !== null && Number(requested) === 0 ? 0 : runtime.timings.terminationMs;
  if (graceMs > 0 && current.status?.phase === 'Running') {
    const terminating = store.modify('pods', r.namespace, name, (p) => {
      p.metadata.deletionTimestamp = new Date(Date.now() + graceMs).toISOString().replace(/\.\d+Z$/, 'Z');
      p.metadata.deletionGracePeriodSeconds = Math.ceil(graceMs / 1000);
    })!;
    runtime.terminate(terminating, graceMs, () => {
      if (store.get('pods', r.namespace, name)?.metadata.uid === current.metadata.uid) store.delete('pods', r.namespace, name);
    });
    return terminating;
  }
  runtime.stopped(r.namespace!, name);
  return erase();
}

/** GET pods/{name}/log: container, tailLines, limitBytes, sinceSeconds, timestamps, follow. */
export function podLogs({ runtime }: ApiContext, pod: KubeObject, r: Route, query: URLSearchParams, req: IncomingMessage, res: ServerResponse) {
  const names: string[] = pod.spec.containers.map((c: KubeObject) => c.name);
  let container = query.get('container');
  if (!container) {
    if (names.length > 1) throw badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`);
    container = names[0];
  }
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  if (query.get('previous') === 'true') throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
  const log = runtime.log(r.namespace!, r.name!, container);
  if (!log) throw badRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ContainerCreating`);
  const number = (key: string) => {
    const value = query.get(key);
    if (value === null) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw badRequest(`${key}: Invalid value: ${JSON.stringify(value)}: must be greater than or equal to 0`);
    return n;
  };
  const tailLines = number('tailLines');
  let remaining = number('limitBytes') ?? Infinity;
  const sinceSeconds = number('sinceSeconds');
  const withTimestamps = query.get('timestamps') === 'true';
  const format = (line: { time: string; text: string }) => `${withTimestamps ? `${line.time.replace(/Z$/, '000000Z')} ` : ''}${line.text}\n`;
  let lines = log.lines;
  if (sinceSeconds !== undefined) lines = lines.filter((l) => Date.parse(l.time) >= Date.now() - sinceSeconds * 1000);
  if (tailLines !== undefined) lines = tailLines === 0 ? [] : lines.slice(-tailLines);
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  const write = (text: string) => {
    const bytes = Buffer.from(text);
    const out = bytes.length > remaining ? bytes.subarray(0, remaining) : bytes;
    remaining -= out.length;
    if (out.length) res.write(out);
    return remaining > 0;
  };
  let open = true;
  for (const line of lines) if (!(open = write(format(line)))) break;
  if (!open || !(query.get('follow') === 'true' || query.get('follow') === '1')) {
    res.end();
    return;
  }
  const onLine = (line: { time: string; text: string }) => {
    if (!write(format(line))) finish();
  };
  const finish = () => {
    log.emitter.off('line', onLine);
    log.emitter.off('end', finish);
    if (!res.writableEnded) res.end();
  };
  log.emitter.on('line', onLine);
  log.emitter.once('end', finish);
  req.once('close', finish);
  res.once('close', finish);
}
