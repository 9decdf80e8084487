import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { isReady, NodeSimulation, targetOf, type NodeTarget, type NodeTimings } from './kubelets.js';
import { parseQuantity } from './quantity.js';
import type { KubeObject, ObjectStore } from './store.js';

// What runs on the sandbox's nodes: the nodes themselves (kubelets.ts), a scheduler that binds
// new pods to Ready nodes, containers that start after a moment and write a log line every few seconds.

export interface RuntimeTimings extends NodeTimings {
  /** Delay from pod creation to scheduling onto a node. */
  scheduleMs: number;
  /** Delay from scheduling to Running. */
  startMs: number;
  /** Interval between log lines of a running container. */
  logIntervalMs: number;
  /** Grace period of a deleted running pod before it disappears (0 = at once). */
  terminationMs: number;
  /** How long a Job's pod runs before its containers exit 0 (the sandbox runs no real command). */
  jobRunMs: number;
}

export const DEFAULT_TIMINGS: RuntimeTimings = {
  scheduleMs: 300,
  startMs: 1200,
  logIntervalMs: 3000,
  heartbeatMs: 10_000,
  terminationMs: 1000,
  jobRunMs: 2000,
  nodeReadyMs: 3000,
  // kube-controller-manager's --node-monitor-grace-period
  nodeMonitorGraceMs: 50_000,
};

export interface LogLine {
  time: string;
  text: string;
}

interface ContainerLog {
  lines: LogLine[];
  emitter: EventEmitter;
}

const MAX_LOG_LINES = 5000;

const timestamp = (date = new Date()) => date.toISOString().replace(/\.\d+Z$/, 'Z');

export class SandboxRuntime {
  private readonly podTimers = new Map<string, NodeJS.Timeout[]>();
  private readonly logs = new Map<string, Map<string, ContainerLog>>();
  private nextIp = new Map<string, number>();
  private closed = false;
  readonly nodes: NodeSimulation;

  constructor(
    private readonly store: ObjectStore,
    readonly timings: RuntimeTimings,
  ) {
    this.nodes = new NodeSimulation(store, timings);
  }

  start() {
    this.nodes.start();
  }

  stop() {
    this.closed = true;
    this.nodes.stop();
    for (const list of this.podTimers.values()) for (const timer of list) clearTimeout(timer);
    for (const containers of this.logs.values()) for (const log of containers.values()) log.emitter.emit('end');
    this.podTimers.clear();
  }

  private later(key: string, ms: number, work: () => void) {
    const timer = setTimeout(() => {
      if (!this.closed) work();
    }, ms);
    timer.unref();
    const list = this.podTimers.get(key) ?? [];
    list.push(timer);
    this.podTimers.set(key, list);
  }

  /** Defaults and initial status of a pod about to be stored. */
  prepare(pod: KubeObject) {
    pod.spec.restartPolicy ??= 'Always';
    pod.spec.dnsPolicy ??= 'ClusterFirst';
    pod.spec.schedulerName ??= 'default-scheduler';
    pod.spec.serviceAccountName ??= 'default';
    pod.spec.serviceAccount ??= pod.spec.serviceAccountName;
    pod.spec.terminationGracePeriodSeconds ??= 30;
    pod.spec.securityContext ??= {};
    pod.spec.enableServiceLinks ??= true;
    pod.spec.priority ??= 0;
    pod.spec.preemptionPolicy ??= 'PreemptLowerPriority';
    for (const c of pod.spec.containers) {
      c.imagePullPolicy ??= /:[^/]+$/.test(c.image) && !c.image.endsWith(':latest') ? 'IfNotPresent' : 'Always';
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      c.resources ??= {};
    }
    // Guaranteed: every container limits cpu and memory and requests what it limits (the
    // LimitRange's defaults, 100m under a 500m limit, make Burstable pods).
    const same = (a: unknown, b: unknown) => parseQuantity(a)?.nanos === parseQuantity(b)?.nanos;
    const guaranteed = pod.spec.containers.every((c: KubeObject) => {
      const limits = c.resources?.limits ?? {};
      const requests = c.resources?.requests ?? {};
      return limits.cpu && limits.memory && ['cpu', 'memory'].every((name) => requests[name] === undefined || same(requests[name], limits[name]));
    });
    const named = (list: unknown) => !!list && typeof list === 'object' && Object.keys(list).length > 0;
    const any = pod.spec.containers.some((c: KubeObject) => named(c.resources?.requests) || named(c.resources?.limits));
    pod.status = { phase: 'Pending', qosClass: guaranteed ? 'Guaranteed' : any ? 'Burstable' : 'BestEffort' };
  }

  private static key(pod: KubeObject) {
    return `${pod.metadata.namespace}/${pod.metadata.name}`;
  }

  /** Schedules a freshly created pod, then starts its containers. */
  admitted(pod: KubeObject) {
    const key = SandboxRuntime.key(pod);
    const { namespace, name } = pod.metadata;
    const uid = pod.metadata.uid;
    const same = (p: KubeObject) => p.metadata.uid === uid && !p.metadata.deletionTimestamp;
    const attempt = () => {
      const current = this.store.get('pods', namespace, name);
      if (!current || !same(current)) return;
      const named = current.spec.nodeName ? this.store.get('nodes', undefined, current.spec.nodeName) : undefined;
      const target = named ? targetOf(named) : this.leastLoadedNode();
      if (!target) {
        // no Ready, schedulable node: the pod stays Pending and the scheduler tries again
        this.unschedulable(current);
        this.later(key, this.timings.scheduleMs, attempt);
        return;
      }
      const now = timestamp();
      this.store.modify('pods', namespace, name, (p) => {
        p.spec.nodeName = target.name;
        p.status = {
          ...p.status,
          conditions: [
            { type: 'PodReadyToStartContainers', status: 'False', lastProbeTime: null, lastTransitionTime: now },
            { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: now },
            { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: now, reason: 'ContainersNotReady', message: `containers with unready status: [${p.spec.containers.map((c: KubeObject) => c.name).join(' ')}]` },
            { type: 'ContainersReady', status: 'False', lastProbeTime: null, lastTransitionTime: now, reason: 'ContainersNotReady', message: `containers with unready status: [${p.spec.containers.map((c: KubeObject) => c.name).join(' ')}]` },
            { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
          ],
          hostIP: target.ip,
          hostIPs: [{ ip: target.ip }],
          startTime: now,
          containerStatuses: p.spec.containers.map((c: KubeObject) => ({
            name: c.name, image: c.image, imageID: '', ready: false, restartCount: 0, started: false,
            state: { waiting: { reason: 'ContainerCreating' } }, lastState: {},
          })),
        };
      });
      this.later(key, this.timings.startMs, () => this.run(namespace!, name, uid!, target));
    };
    this.later(key, this.timings.scheduleMs, attempt);
  }

  /** The Ready, schedulable (not cordoned) node with the fewest pods, if any. */
  private leastLoadedNode(): NodeTarget | undefined {
    const pods = this.store.list('pods');
    const load = (n: string) => pods.filter((p) => p.spec?.nodeName === n).length;
    const candidates = this.store.list('nodes').filter((n) => isReady(n) && !n.spec?.unschedulable);
    return candidates.map(targetOf).sort((a, b) => load(a.name) - load(b.name))[0];
  }

  /** PodScheduled False as the scheduler reports a pod no node can take (written once). */
  private unschedulable(pod: KubeObject) {
    if (pod.status?.conditions?.some((c: KubeObject) => c.type === 'PodScheduled')) return;
    const nodes = this.store.list('nodes');
    const notReady = nodes.filter((n) => !isReady(n)).length;
    const cordoned = nodes.filter((n) => isReady(n) && n.spec?.unschedulable).length;
    const reasons = [notReady ? `${notReady} node(s) were not ready` : '', cordoned ? `${cordoned} node(s) were unschedulable` : ''].filter(Boolean);
    const message = `0/${nodes.length} nodes are available${reasons.length ? `: ${reasons.join(', ')}` : ''}.`;
    this.store.modify('pods', pod.metadata.namespace, pod.metadata.name, (p) => {
      p.status.conditions = [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: timestamp(), reason: 'Unschedulable', message }];
    });
  }

  private run(namespace: string, name: string, uid: string, target: NodeTarget) {
    const current = this.store.get('pods', namespace, name);
    if (!current || current.metadata.uid !== uid || current.metadata.deletionTimestamp) return;
    const counter = (this.nextIp.get(target.name) ?? 1) + 1;
    this.nextIp.set(target.name, counter > 254 ? 2 : counter);
    const podIp = target.podCidr.replace(/0\/24$/, String(counter));
    const now = timestamp();
    this.store.modify('pods', namespace, name, (p) => {
      p.status.phase = 'Running';
      p.status.podIP = podIp;
      p.status.podIPs = [{ ip: podIp }];
      for (const c of p.status.conditions) {
        if (c.status === 'False') {
          c.status = 'True';
          c.lastTransitionTime = now;
          delete c.reason;
          delete c.message;
        }
      }
      p.status.containerStatuses = p.spec.containers.map((c: KubeObject) => ({
        name: c.name,
        image: c.image,
        imageID: `${c.image.split(':')[0]}@sha256:${randomBytes(32).toString('hex')}`,
        containerID: `containerd://${randomBytes(32).toString('hex')}`,
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: now } },
        lastState: {},
      }));
    });
    this.startContainers(current, target, 'started');
    if (SandboxRuntime.runsToCompletion(current)) this.later(SandboxRuntime.key(current), this.timings.jobRunMs, () => this.complete(namespace, name, uid));
  }

  /** A Job's pod: its containers run the command and exit (restartPolicy Never or OnFailure). */
  private static runsToCompletion(pod: KubeObject) {
    return ((pod.metadata.ownerReferences ?? []) as KubeObject[]).some((r) => r.kind === 'Job' && r.controller) && pod.spec.restartPolicy !== 'Always';
  }

  /** The containers exit 0: the pod Succeeded, its log stays readable, its followers are done. */
  private complete(namespace: string, name: string, uid: string) {
    const current = this.store.get('pods', namespace, name);
    if (!current || current.metadata.uid !== uid || current.metadata.deletionTimestamp || current.status?.phase !== 'Running') return;
    const key = `${namespace}/${name}`;
    for (const timer of this.podTimers.get(key) ?? []) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.podTimers.delete(key);
    for (const log of this.logs.get(key)?.values() ?? []) {
      this.append(log, 'sandbox: command finished, exit code 0');
      log.emitter.emit('end');
    }
    const now = timestamp();
    this.store.modify('pods', namespace, name, (p) => {
      p.status.phase = 'Succeeded';
      for (const c of p.status.conditions ?? []) {
        if (c.type === 'Ready' || c.type === 'ContainersReady' || c.type === 'PodReadyToStartContainers') {
          c.status = 'False';
          c.lastTransitionTime = now;
          if (c.type !== 'PodReadyToStartContainers') c.reason = 'PodCompleted';
        }
      }
      p.status.containerStatuses = (p.status.containerStatuses ?? []).map((c: KubeObject) => ({
        ...c,
        ready: false,
        started: false,
        state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: c.state?.running?.startedAt ?? now, finishedAt: now, containerID: c.containerID } },
      }));
    });
  }

  /**
   * The pods of a restored state: terminating ones are gone, running ones get their containers
   * (and a fresh log) back, the others are scheduled again.
   */
  resume(pods: KubeObject[], remove: (pod: KubeObject) => void) {
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) {
        remove(pod);
        continue;
      }
      const node = pod.spec?.nodeName ? this.store.get('nodes', undefined, pod.spec.nodeName) : undefined;
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue; // finished: nothing runs
      if (pod.status?.phase === 'Running' && node) {
        this.startContainers(pod, targetOf(node), 'resumed');
        if (SandboxRuntime.runsToCompletion(pod)) this.later(SandboxRuntime.key(pod), this.timings.jobRunMs, () => this.complete(pod.metadata.namespace!, pod.metadata.name, pod.metadata.uid!));
      } else this.admitted(pod);
    }
  }

  private startContainers(pod: KubeObject, target: NodeTarget, how: 'started' | 'resumed') {
    const key = SandboxRuntime.key(pod);
    const containers = new Map<string, ContainerLog>();
    this.logs.set(key, containers);
    for (const c of pod.spec.containers) {
      const log: ContainerLog = { lines: [], emitter: new EventEmitter() };
      log.emitter.setMaxListeners(0);
      containers.set(c.name, log);
      const command = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
      if (how === 'resumed') this.append(log, `sandbox: container ${c.name} (image ${c.image}) on ${target.name} carries on after a sandbox restart`);
      else this.append(log, `sandbox: started container ${c.name} (image ${c.image}) on ${target.name}`);
      if (command) this.append(log, `sandbox: command: ${command}`);
    }
    let tick = 0;
    const ticker = setInterval(() => {
      tick++;
      for (const [containerName, log] of containers) this.append(log, `sandbox: ${containerName} is running on ${target.name} (tick ${tick})`);
    }, this.timings.logIntervalMs);
    ticker.unref();
    const timers = this.podTimers.get(key) ?? [];
    timers.push(ticker);
    this.podTimers.set(key, timers);
  }

  private append(log: ContainerLog, text: string) {
    const line = { time: new Date().toISOString(), text };
    log.lines.push(line);
    if (log.lines.length > MAX_LOG_LINES) log.lines.shift();
    log.emitter.emit('line', line);
  }

  /** The log of a running container, or undefined when the container has not started. */
  log(namespace: string, name: string, container: string): ContainerLog | undefined {
    return this.logs.get(`${namespace}/${name}`)?.get(container);
  }

  /** Readers following the pod's container logs. */
  logFollowers(namespace: string, name: string): number {
    let count = 0;
    for (const log of this.logs.get(`${namespace}/${name}`)?.values() ?? []) count += log.emitter.listenerCount('line');
    return count;
  }

  /** Stops a pod's containers (its timers and log followers). */
  stopped(namespace: string, name: string) {
    const key = `${namespace}/${name}`;
    for (const timer of this.podTimers.get(key) ?? []) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.podTimers.delete(key);
    for (const log of this.logs.get(key)?.values() ?? []) log.emitter.emit('end');
    this.logs.delete(key);
  }

  /** A deleted pod: terminating for a grace period when running, then gone. */
  terminate(pod: KubeObject, graceMs: number, remove: () => void) {
    const key = SandboxRuntime.key(pod);
    if (graceMs <= 0 || pod.status?.phase !== 'Running') {
      this.stopped(pod.metadata.namespace!, pod.metadata.name);
      remove();
      return;
    }
    const timer = setTimeout(() => {
      this.stopped(pod.metadata.namespace!, pod.metadata.name);
      if (!this.closed) remove();
    }, graceMs);
    timer.unref();
    const list = this.podTimers.get(key) ?? [];
    list.push(timer);
    this.podTimers.set(key, list);
  }
}
