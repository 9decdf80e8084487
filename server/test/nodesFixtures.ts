import type { NodeRecord } from '../src/db/schema.js';
import { type SignedInUser, type TestContext, uniqueEmail } from './helpers.js';

// What the nodes tests share: quick sandbox timings (nodes get ready and go unknown within a
// second), the people who own nodes, and the cluster's view of a node as a kubelet reports it.

/** Sandbox timings for the nodes tests: createTestContext({ cluster: { timings: FAST } }). */
export const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 300, terminationMs: 100, nodeReadyMs: 300, nodeMonitorGraceMs: 900 };

/** A signed-in user as the nodes tests make them: "<firstname> Owner" (the name node listings show). */
export const nodeUser = (ctx: TestContext, { admin = false, firstname = 'Node' }: { admin?: boolean; firstname?: string } = {}): Promise<SignedInUser> =>
  ctx.signedInUser({ firstname, lastname: 'Owner', email: uniqueEmail('node'), admin });

/** A node's row as the database has it now. */
export const nodeRecord = (ctx: TestContext, id: number): Promise<NodeRecord> => ctx.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The node secret inside an installation_url. */
export const secretOf = (installationUrl: string) => installationUrl.split('/agent/install/')[1];

/** A Node object as a kubelet registers it, for the sandbox store (ready or not). */
export function kubeletNode(name: string, options: { ready?: 'True' | 'False' | 'Unknown'; heartbeat?: Date; pressure?: string; ip?: string } = {}) {
  const now = (options.heartbeat ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string, status: string) => ({ type, status, lastHeartbeatTime: now, lastTransitionTime: now, reason: `Kubelet${type}`, message: `${type} is ${status}` });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64' } },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '8000000Ki', pods: '110', 'ephemeral-storage': '30000000Ki' },
      conditions: [
        condition('MemoryPressure', options.pressure === 'MemoryPressure' ? 'True' : 'False'),
        condition('DiskPressure', options.pressure === 'DiskPressure' ? 'True' : 'False'),
        condition('PIDPressure', 'False'),
        condition('Ready', options.ready ?? 'True'),
      ],
      addresses: [
        { type: 'InternalIP', address: options.ip ?? '192.168.1.50' },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        architecture: 'arm64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kubeletVersion: 'v1.32.0',
        kernelVersion: '6.1.0-rpi7-rpi-v8',
        containerRuntimeVersion: 'containerd://1.7.24',
      },
    },
  };
}
