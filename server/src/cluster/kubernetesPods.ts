import { Writable } from 'node:stream';
import { type CoreV1Api, type KubeConfig, Log, type V1Container, type V1Pod, Watch } from '@kubernetes/client-node';
import {
  type AccountedPod,
  type AccountedResources,
  type ClusterError,
  type ClusterGateway,
  type PodLogHandlers,
  type PodSummary,
  type PodWatchHandlers,
  type Stoppable,
  type WatchEventType,
  WORKSPACE_NAMESPACE_SELECTOR,
} from './gateway.js';
import { call, toClusterError } from './kubernetesCalls.js';
import { quantityNumber } from './sandbox/quantity.js';

// A workspace's pods for the console: the list, a watch (the workspace page's live list) and
// a follow of one pod's log; and the running pods of every workspace, for usage accounting.
// Reads only.

/** Items per page of a cluster-wide list (kubectl's chunk size). */
export const LIST_PAGE_SIZE = 500;

/**
 * Every item of a list, page by page (`limit`/`continue`), each page turned into what the
 * caller keeps as it comes (so 50,000 pods are never held as client objects at once). Each page
 * is one call with its own timeout; a continue token that expired (410) fails the whole read,
 * as a partial one would count only some pods.
 */
async function allPages<T, U>(
  page: (token: string | undefined) => Promise<{ items: T[]; metadata?: { _continue?: string } }>,
  keep: (items: T[]) => U[],
): Promise<U[]> {
  const kept: U[] = [];
  let token: string | undefined;
  do {
    const list = await call(() => page(token));
    for (const item of keep(list.items)) kept.push(item);
    token = list.metadata?._continue || undefined;
  } while (token);
  return kept;
}

function accountedResources(container: V1Container): AccountedResources {
  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  return {
    requests: { cpu: quantityNumber(requests.cpu), memory: quantityNumber(requests.memory) },
    limits: { cpu: quantityNumber(limits.cpu), memory: quantityNumber(limits.memory) },
  };
}

const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED']);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function podSummary(pod: V1Pod, namespace: string): PodSummary {
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? namespace,
    status: {
      phase: pod.status?.phase ?? null,
      podIP: pod.status?.podIP ?? null,
      hostIP: pod.status?.hostIP ?? null,
      startTime: pod.status?.startTime ? new Date(pod.status.startTime).toISOString() : null,
    },
  };
}

export function podCalls(kc: KubeConfig, core: CoreV1Api, pageSize = LIST_PAGE_SIZE): Pick<ClusterGateway, 'listPods' | 'listWorkspacePods' | 'watchPods' | 'streamPodLogs'> {
  return {
    async listPods(namespace): Promise<PodSummary[]> {
      const list = await call(() => core.listNamespacedPod({ namespace }));
      return list.items.map((pod) => podSummary(pod, namespace));
    },

    async listWorkspacePods(): Promise<AccountedPod[]> {
      // Pods do not carry their namespace's labels: the workspace namespaces are listed by
      // label, then the running pods of the whole cluster (status.phase is a field every API
      // server selects on), kept when they are in one of them.
      const namespaces = new Set(
        await allPages(
          (token) => core.listNamespace({ labelSelector: WORKSPACE_NAMESPACE_SELECTOR, limit: pageSize, _continue: token }),
          (items) => items.map((namespace) => namespace.metadata?.name ?? ''),
        ),
      );
      return allPages(
        (token) => core.listPodForAllNamespaces({ fieldSelector: 'status.phase=Running', limit: pageSize, _continue: token }),
        (items) =>
          items
            .filter((pod) => namespaces.has(pod.metadata?.namespace ?? ''))
            .map((pod) => ({
              namespace: pod.metadata?.namespace ?? '',
              name: pod.metadata?.name ?? '',
              phase: pod.status?.phase ?? null,
              startTime: pod.status?.startTime ? new Date(pod.status.startTime).toISOString() : null,
              containers: (pod.spec?.containers ?? []).map(accountedResources),
            })),
      );
    },

    async watchPods(namespace, handlers: PodWatchHandlers): Promise<Stoppable> {
      let stopped = false;
      const controller = await call(() =>
        new Watch(kc).watch(
          `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
          {},
          (type: string, pod: V1Pod) => {
            if (stopped || !WATCH_TYPES.has(type)) return;
            handlers.onChange(type as WatchEventType, podSummary(pod, namespace));
          },
          (error: unknown) => {
            if (stopped) return;
            stopped = true;
            handlers.onEnd(error ? toClusterError(error) : undefined);
          },
        ),
      );
      return {
        stop() {
          stopped = true;
          controller.abort();
        },
      };
    },

    async streamPodLogs({ namespace, pod, tailLines }, handlers: PodLogHandlers): Promise<Stoppable> {
      // The console shows one container's log: the first one, as `kubectl logs` does by default.
      const found = await call(() => core.readNamespacedPod({ name: pod, namespace }));
      const container = found.spec?.containers[0]?.name ?? '';
      let stopped = false;
      let ended = false;
      const end = (error?: ClusterError) => {
        if (stopped || ended) return;
        ended = true;
        handlers.onEnd(error);
      };
      // Asked with timestamps=true: each line starts with its RFC 3339 time and a space.
      const emit = (raw: string) => {
        const line = raw.replace(/\r$/, '');
        const space = line.indexOf(' ');
        const time = space > 0 ? line.slice(0, space) : '';
        if (TIMESTAMP.test(time)) handlers.onLine(line.slice(space + 1), time);
        else handlers.onLine(line, null);
      };
      let partial = '';
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          const text = partial + chunk.toString('utf8');
          const lines = text.split('\n');
          partial = lines.pop() ?? '';
          if (!stopped) for (const line of lines) emit(line);
          done();
        },
        final(done) {
          if (partial && !stopped) emit(partial);
          partial = '';
          done();
          end();
        },
      });
      sink.on('error', (error) => end(toClusterError(error)));
      // pipe() does not pass the response's errors on: listen to the response itself, so a
      // dropped connection ends the stream too.
      sink.on('pipe', (response: NodeJS.ReadableStream) => {
        response.on('error', (error: Error) => end(toClusterError(error)));
        response.on('close', () => setImmediate(() => end()));
      });
      const controller = await call(() => new Log(kc).log(namespace, pod, container, sink, { follow: true, tailLines, timestamps: true }));
      return {
        stop() {
          stopped = true;
          controller.abort();
          sink.destroy();
        },
      };
    },
  };
}
