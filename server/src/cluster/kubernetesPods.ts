import { Writable } from 'node:stream';
import { type CoreV1Api, type KubeConfig, Log, type V1Pod, Watch } from '@kubernetes/client-node';
import type { ClusterError, ClusterGateway, PodLogHandlers, PodSummary, PodWatchHandlers, Stoppable, WatchEventType } from './gateway.js';
import { call, toClusterError } from './kubernetesCalls.js';

// A workspace's pods for the console: the list, a watch (the workspace page's live list) and
// a follow of one pod's log. Reads only.

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

export function podCalls(kc: KubeConfig, core: CoreV1Api): Pick<ClusterGateway, 'listPods' | 'watchPods' | 'streamPodLogs'> {
  return {
    async listPods(namespace): Promise<PodSummary[]> {
      const list = await call(() => core.listNamespacedPod({ namespace }));
      return list.items.map((pod) => podSummary(pod, namespace));
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
