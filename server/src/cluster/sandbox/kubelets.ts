import { randomBytes } from 'node:crypto';
import type { KubeObject, ObjectStore } from './store.js';

// The sandbox's nodes: a simulated kubelet per Node (the three built-in sandbox-node-N and
// every Node created through the API) that posts its conditions and heartbeats, plus the bits
// of kube-controller-manager that act on Nodes: pod CIDR allocation (node-ipam) and the
// node-lifecycle controller, which marks a Node's conditions Unknown when its kubelet has
// not posted for the monitor grace period.

export interface NodeTimings {
  /** Interval between kubelet status posts (each a MODIFIED event on the Node). */
  heartbeatMs: number;
  /** Delay from a Node's creation through the API to its kubelet reporting Ready (CNI up). */
  nodeReadyMs: number;
  /** Time without a post after which the node-lifecycle controller sets the conditions Unknown. */
  nodeMonitorGraceMs: number;
}

export const KUBELET_VERSION = 'v1.32.0+testbed.sandbox';

/** The nodes every sandbox starts with. */
export const BUILTIN_NODES = [1, 2, 3].map((n) => ({ name: `sandbox-node-${n}`, ip: `10.240.0.${10 + n}`, podCidr: `10.244.${n}.0/24` }));

const timestamp = (date = new Date()) => date.toISOString().replace(/\.\d+Z$/, 'Z');

interface NodeCondition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

interface ReportedCondition {
  status: string;
  reason?: string;
  message?: string;
}

// What a kubelet reports for its standard conditions, worded as the kubelet words them.
const HEALTHY: Record<string, ReportedCondition> = {
  MemoryPressure: { status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  DiskPressure: { status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  PIDPressure: { status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  Ready: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
};
const UNHEALTHY: Record<string, ReportedCondition> = {
  MemoryPressure: { status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' },
  DiskPressure: { status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' },
  PIDPressure: { status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' },
  Ready: {
    status: 'False',
    reason: 'KubeletNotReady',
    message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
  },
};
const STANDARD_CONDITIONS = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'];

/** The reason and message a kubelet gives for a condition in that status, when it has a standard wording. */
function standardWording(type: string, status: string): ReportedCondition {
  if (HEALTHY[type]?.status === status) return HEALTHY[type];
  if (UNHEALTHY[type]?.status === status) return UNHEALTHY[type];
  return { status };
}

function builtinNode(spec: (typeof BUILTIN_NODES)[number]): KubeObject {
  const now = timestamp();
  const conditions = STANDARD_CONDITIONS.map((type) => ({ type, ...HEALTHY[type], lastHeartbeatTime: now, lastTransitionTime: now }));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        'testbed.dev/sandbox': 'true',
      },
    },
    spec: { podCIDR: spec.podCidr, podCIDRs: [spec.podCidr], providerID: `sandbox://${spec.name}` },
    status: {
      capacity: { cpu: '4', memory: '16374584Ki', pods: '110', 'ephemeral-storage': '102687672Ki' },
      allocatable: { cpu: '3800m', memory: '15658040Ki', pods: '110', 'ephemeral-storage': '94636958052' },
      conditions,
      addresses: [
        { type: 'InternalIP', address: spec.ip },
        { type: 'Hostname', address: spec.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: randomBytes(16).toString('hex'),
        systemUUID: randomBytes(16).toString('hex'),
        bootID: randomBytes(16).toString('hex'),
        kernelVersion: '6.1.0-sandbox',
        osImage: 'Testbed Sandbox Linux',
        containerRuntimeVersion: 'containerd://1.7.24',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/** Where the scheduler may put a pod: a node's name, InternalIP and pod CIDR. */
export interface NodeTarget {
  name: string;
  ip: string;
  podCidr: string;
}

export function targetOf(node: KubeObject): NodeTarget {
  const addresses: { type: string; address: string }[] = node.status?.addresses ?? [];
  const ip = addresses.find((a) => a.type === 'InternalIP')?.address ?? addresses[0]?.address ?? '';
  return { name: node.metadata.name, ip, podCidr: node.spec?.podCIDR ?? '10.244.0.0/24' };
}

export const isReady = (node: KubeObject) => (node.status?.conditions ?? []).some((c: KubeObject) => c.type === 'Ready' && c.status === 'True');

interface Kubelet {
  node: string;
  uid: string;
  running: boolean;
  reported: Map<string, ReportedCondition>;
  lastPostedAt: number;
  /** Still to report Ready once its network is up (nodeReadyMs after registration). */
  becomesReady: boolean;
  readyTimer?: NodeJS.Timeout;
  monitorTimer?: NodeJS.Timeout;
}

export class NodeSimulation {
  private readonly kubelets = new Map<string, Kubelet>();
  private heartbeat?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly timings: NodeTimings,
  ) {}

  start() {
    for (const spec of BUILTIN_NODES) {
      const node = this.store.get('nodes', undefined, spec.name) ?? this.store.create('nodes', builtinNode(spec));
      this.registered(node);
    }
    // Nodes that joined before a restart (restored state): their machines' kubelets carry on.
    for (const node of this.store.list('nodes')) if (!this.kubelets.has(node.metadata.name)) this.registered(node);
    this.heartbeat = setInterval(() => {
      for (const kubelet of this.kubelets.values()) if (kubelet.running) this.post(kubelet);
    }, this.timings.heartbeatMs);
    this.heartbeat.unref();
  }

  stop() {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const kubelet of this.kubelets.values()) this.clearTimers(kubelet);
    this.kubelets.clear();
  }

  /**
   * Defaults for a Node about to be created through the API, as its kubelet registers it
   * (labels, nodeInfo, capacity, daemon endpoints, the standard conditions with Ready False
   * while the network is not up) and node-ipam assigns it (a free 10.244.N.0/24 pod CIDR).
   * Fields the client sent are kept.
   */
  prepare(node: KubeObject) {
    const name = node.metadata.name;
    node.spec = typeof node.spec === 'object' && node.spec ? node.spec : {};
    node.status = typeof node.status === 'object' && node.status ? node.status : {};
    const status = node.status;
    const info = (status.nodeInfo = { ...status.nodeInfo });
    info.machineID ??= randomBytes(16).toString('hex');
    info.systemUUID ??= randomBytes(16).toString('hex');
    info.bootID ??= randomBytes(16).toString('hex');
    info.kernelVersion ??= '6.1.0-sandbox';
    info.osImage ??= 'Testbed Sandbox Linux';
    info.containerRuntimeVersion ??= 'containerd://1.7.24';
    info.kubeletVersion ??= KUBELET_VERSION;
    info.kubeProxyVersion ??= KUBELET_VERSION;
    info.operatingSystem ??= node.metadata.labels?.['kubernetes.io/os'] ?? 'linux';
    info.architecture ??= node.metadata.labels?.['kubernetes.io/arch'] ?? 'amd64';
    node.metadata.labels = {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': info.operatingSystem,
      'kubernetes.io/arch': info.architecture,
      'beta.kubernetes.io/os': info.operatingSystem,
      'beta.kubernetes.io/arch': info.architecture,
      ...node.metadata.labels,
    };
    status.capacity ??= { cpu: '2', memory: '8148236Ki', pods: '110', 'ephemeral-storage': '61255492Ki' };
    status.allocatable ??= { ...status.capacity };
    status.daemonEndpoints ??= { kubeletEndpoint: { Port: 10250 } };
    status.addresses ??= [{ type: 'Hostname', address: name }];
    const now = timestamp();
    const conditions: NodeCondition[] = Array.isArray(status.conditions) ? status.conditions : [];
    for (const type of STANDARD_CONDITIONS) {
      if (conditions.some((c) => c.type === type)) continue;
      const initial = type === 'Ready' ? UNHEALTHY.Ready : HEALTHY[type];
      conditions.push({ type, ...initial, lastHeartbeatTime: now, lastTransitionTime: now });
    }
    status.conditions = conditions;
    if (!node.spec.podCIDR) {
      const used = new Set(this.store.list('nodes').map((n) => n.spec?.podCIDR));
      let n = 1;
      while (used.has(`10.244.${n}.0/24`) && n < 255) n++;
      node.spec.podCIDR = `10.244.${n}.0/24`;
      node.spec.podCIDRs = [node.spec.podCIDR];
    }
  }

  /** Starts the kubelet of a stored Node: it posts from now on, and reports Ready after nodeReadyMs when it does not yet. */
  registered(node: KubeObject) {
    this.removed(node.metadata.name);
    const reported = new Map<string, ReportedCondition>();
    for (const c of node.status?.conditions ?? []) {
      if (STANDARD_CONDITIONS.includes(c.type)) reported.set(c.type, { status: c.status, reason: c.reason, message: c.message });
    }
    const kubelet: Kubelet = {
      node: node.metadata.name,
      uid: node.metadata.uid!,
      running: true,
      reported,
      lastPostedAt: Date.now(),
      becomesReady: reported.get('Ready')?.status !== 'True',
    };
    this.kubelets.set(kubelet.node, kubelet);
    if (kubelet.becomesReady) this.scheduleReady(kubelet);
  }

  /** The Node was deleted: its kubelet stops for good. */
  removed(name: string) {
    const kubelet = this.kubelets.get(name);
    if (!kubelet) return;
    this.clearTimers(kubelet);
    this.kubelets.delete(name);
  }

  /** Sets what the node's kubelet reports for a condition; posted at once when the kubelet runs, else when it starts again. */
  setCondition(name: string, type: string, status: string, wording: { reason?: string; message?: string } = {}): KubeObject | undefined {
    const kubelet = this.kubelet(name);
    const standard = standardWording(type, status);
    kubelet.reported.set(type, { status, reason: wording.reason ?? standard.reason, message: wording.message ?? standard.message });
    if (type === 'Ready') {
      kubelet.becomesReady = false;
      clearTimeout(kubelet.readyTimer);
    }
    if (kubelet.running) return this.post(kubelet);
    return this.store.get('nodes', undefined, name);
  }

  /** The kubelet stops posting; after nodeMonitorGraceMs since its last post, the node-lifecycle controller marks the Node Unknown. */
  stopKubelet(name: string) {
    const kubelet = this.kubelet(name);
    if (!kubelet.running) return;
    kubelet.running = false;
    clearTimeout(kubelet.readyTimer);
    const due = Math.max(0, kubelet.lastPostedAt + this.timings.nodeMonitorGraceMs - Date.now());
    kubelet.monitorTimer = setTimeout(() => this.markUnknown(kubelet), due);
    kubelet.monitorTimer.unref();
  }

  /** The kubelet runs again: it posts its conditions at once and heartbeats from then on. */
  startKubelet(name: string) {
    const kubelet = this.kubelet(name);
    if (kubelet.running) return;
    clearTimeout(kubelet.monitorTimer);
    kubelet.running = true;
    this.post(kubelet);
    if (kubelet.becomesReady) this.scheduleReady(kubelet);
  }

  kubeletRunning(name: string): boolean {
    return this.kubelet(name).running;
  }

  private kubelet(name: string): Kubelet {
    const kubelet = this.kubelets.get(name);
    if (!kubelet) throw new Error(`the sandbox has no kubelet for node "${name}"`);
    return kubelet;
  }

  private scheduleReady(kubelet: Kubelet) {
    clearTimeout(kubelet.readyTimer);
    kubelet.readyTimer = setTimeout(() => {
      if (this.closed || !kubelet.running) return;
      kubelet.becomesReady = false;
      kubelet.reported.set('Ready', HEALTHY.Ready);
      this.post(kubelet);
    }, this.timings.nodeReadyMs);
    kubelet.readyTimer.unref();
  }

  private clearTimers(kubelet: Kubelet) {
    clearTimeout(kubelet.readyTimer);
    clearTimeout(kubelet.monitorTimer);
  }

  /** The stored Node of this kubelet, or undefined (and the kubelet forgotten) when it is gone or was replaced. */
  private nodeOf(kubelet: Kubelet): KubeObject | undefined {
    const node = this.store.get('nodes', undefined, kubelet.node);
    if (node && node.metadata.uid === kubelet.uid) return node;
    if (this.kubelets.get(kubelet.node) === kubelet) this.removed(kubelet.node);
    return undefined;
  }

  /** A kubelet status post: the conditions it reports, each with the heartbeat time now. */
  private post(kubelet: Kubelet): KubeObject | undefined {
    if (this.closed || !this.nodeOf(kubelet)) return undefined;
    const now = timestamp();
    kubelet.lastPostedAt = Date.now();
    return this.store.modify('nodes', undefined, kubelet.node, (node) => {
      node.status ??= {};
      const conditions: NodeCondition[] = (node.status.conditions ??= []);
      for (const [type, reported] of kubelet.reported) {
        let condition = conditions.find((c) => c.type === type);
        if (!condition) {
          condition = { type, lastTransitionTime: now };
          conditions.push(condition);
        }
        if (condition.status !== reported.status) condition.lastTransitionTime = now;
        condition.status = reported.status;
        if (reported.reason) condition.reason = reported.reason;
        else delete condition.reason;
        if (reported.message) condition.message = reported.message;
        else delete condition.message;
        condition.lastHeartbeatTime = now;
      }
    });
  }

  /** The node-lifecycle controller's verdict on a silent kubelet (tryUpdateNodeHealth). */
  private markUnknown(kubelet: Kubelet) {
    if (this.closed || kubelet.running || !this.nodeOf(kubelet)) return;
    const now = timestamp();
    this.store.modify('nodes', undefined, kubelet.node, (node) => {
      node.status ??= {};
      const conditions: NodeCondition[] = (node.status.conditions ??= []);
      for (const type of STANDARD_CONDITIONS) {
        const condition = conditions.find((c) => c.type === type);
        if (!condition) {
          conditions.push({
            type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
            lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: now,
          });
        } else if (condition.status !== 'Unknown') {
          Object.assign(condition, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: now });
        }
      }
    });
  }
}
