import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import { type ActivityInput, recordActivity } from '../activity/log.js';
import { type ClusterGateway, type ClusterNode, ClusterError, ClusterUnavailable } from '../cluster/gateway.js';
import { CLUSTER_UNREACHABLE, NO_CLUSTER } from '../cluster/http.js';
import type { Config, RateLimit, RateLimits } from '../config/config.js';
import { dialectOf, isUniqueViolation, timestamp } from '../db/database.js';
import type { Database, NodeRecord, NodesTable, NodeStatus, User } from '../db/schema.js';
import { FORBIDDEN } from '../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { reserveEach, type Throttle } from '../http/throttle.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { type Broadcaster, RealtimeEvent } from '../broadcasting/broadcaster.js';
import { parseInfo, type PresenterConfig, presentedStatus, presentNode, withOwners } from './presenter.js';
import type { AgentFacts, AgentStep, NewNodeInput } from './schemas.js';
import { CODE_UNKNOWN, isIpv4 } from './schemas.js';
import { CLAIM_CODE_TTL_MS, isWellFormedSecret, newClaimCode, newNodeSecret, sha256Hex } from './secrets.js';
import { lastHeartbeat, severityOfStatus, statusFromNode, statusWord } from './status.js';

// The nodes domain's rules (docs/nodes-contract.md), as plain functions of the services they
// need, so the routes, the node watcher and the tests share them. Every status change goes
// through `changeNode`: one transaction for the row and its activity entries, then the
// realtime event to the owner.

/** The realtime event on the owner's channel (`private-App.User.{id}`); payload: the Node JSON. */
export const NODE_STATUS_CHANGED = RealtimeEvent.NodeStatusChanged;

/** How long a bootstrap token lets a machine join: enough for one `kubeadm join`. */
export const BOOTSTRAP_TOKEN_TTL_SECONDS = 30 * 60;
/** last_active_at moves at most this often from cluster heartbeats (fewer writes). */
const LAST_ACTIVE_RESOLUTION_MS = 30_000;
/** Machine-first nodes nobody claimed are forgotten this long after their code expired. */
const UNCLAIMED_RETENTION_MS = 24 * 60 * 60_000;

export interface NodeServices {
  db: Kysely<Database>;
  config: PresenterConfig;
  broadcaster: Broadcaster;
  cluster: ClusterGateway;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

// ---------------------------------------------------------------------------------------
// Rate limits

export type NodeRateLimits = Pick<RateLimits, 'nodeClaim' | 'agentRegister'>;

/** The nodes' limits (config/config.ts, DEFAULT_RATE_LIMITS); null with RATE_LIMITS=off. */
export function nodeRateLimits(config: Pick<Config, 'rateLimits'>): NodeRateLimits | null {
  return config.rateLimits;
}

/** The wrong-code limit of POST /api/nodes (nodeClaim, per user) and where it is counted. */
export interface ClaimThrottle {
  throttle: Throttle;
  limit: RateLimit;
}

// ---------------------------------------------------------------------------------------
// Cluster failures as answers (never a 500)

export function nodeClusterError(error: unknown): unknown {
  if (error instanceof ClusterUnavailable) return new HttpError(503, NO_CLUSTER);
  if (error instanceof ClusterError) {
    if (error.kind === 'not-found') return notFound();
    if (error.kind === 'conflict') return new HttpError(409, 'The node changed in the cluster meanwhile. Try again.');
    return new HttpError(503, CLUSTER_UNREACHABLE);
  }
  return error;
}

export async function withNodeCluster<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw nodeClusterError(error);
  }
}

// ---------------------------------------------------------------------------------------
// Reading

const subjectOf = (nodeId: number) => ({ type: 'node', id: nodeId });

export const loadNode = (db: Kysely<Database>, id: number) => db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();

/** A node the user may see: their own, or any for a platform admin; else 404 (existence is not revealed). */
export async function nodeForUser(db: Kysely<Database>, user: User, id: number): Promise<NodeRecord> {
  const node = await loadNode(db, id);
  if (!node || (node.owner_id !== user.id && user.admin !== 1)) throw notFound();
  return node;
}

/**
 * GET /api/nodes: the user's nodes, newest first. Platform admins may ask for another
 * user's (`owner` = id) or every node (`owner` = 'all', unclaimed machines included).
 */
export async function listNodesFor(db: Kysely<Database>, user: User, owner?: string): Promise<NodeRecord[]> {
  const ownerId = owner === undefined || owner === 'all' ? user.id : Number(owner);
  if ((owner === 'all' || ownerId !== user.id) && user.admin !== 1) throw new HttpError(403, FORBIDDEN);
  return db
    .selectFrom('nodes')
    .selectAll()
    .$if(owner !== 'all', (query) => query.where('owner_id', '=', ownerId))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function nodeActivity(db: Kysely<Database>, nodeId: number, limit = 200) {
  return db
    .selectFrom('activity_log')
    .selectAll()
    .where('subject_type', '=', 'node')
    .where('subject_id', '=', nodeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The node a `tbn_…` secret belongs to, or undefined. */
export async function findNodeBySecret(db: Kysely<Database>, secret: string | undefined | null): Promise<NodeRecord | undefined> {
  if (!secret || !isWellFormedSecret(secret)) return undefined;
  return db.selectFrom('nodes').selectAll().where('secret_hash', '=', sha256Hex(secret)).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------
// Changing a node

type NodeChanges = Omit<Updateable<NodesTable>, 'id' | 'created_at' | 'updated_at'>;

interface Change {
  changes: NodeChanges;
  activity?: Omit<ActivityInput, 'subject'>[];
}

/**
 * Applies `decide(current row)` in one transaction: the row update, the given activity
 * entries, and a "status changed" entry when the status moved (not while disabled, when the
 * console shows Disabled whatever the cluster says). After the commit, the owner gets
 * NodeStatusChanged when the status the console shows changed. `decide` may answer null:
 * nothing to do.
 */
export async function changeNode(
  services: NodeServices,
  nodeId: number,
  decide: (current: NodeRecord) => Change | null,
  causerId: number | null = null,
): Promise<NodeRecord | undefined> {
  const { db } = services;
  const result = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', nodeId)
      // PostgreSQL: the watcher and an agent may change the same node at once. (SQLite
      // transactions are serialised already, and it has no FOR UPDATE.)
      .$if(dialectOf(db) === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!current) return undefined;
    const change = decide(current);
    if (!change) return { before: current, after: current };
    const after = await trx
      .updateTable('nodes')
      .set({ ...change.changes, updated_at: timestamp() })
      .where('id', '=', nodeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const entry of change.activity ?? []) await recordActivity(trx, { ...entry, subject: subjectOf(nodeId) });
    if (after.status !== current.status && !after.disabled_at) {
      await recordActivity(trx, {
        causerId,
        description: `status changed from ${statusWord(current.status)} to ${statusWord(after.status)}`,
        subject: subjectOf(nodeId),
        severity: severityOfStatus(after.status),
        properties: { from: current.status, to: after.status },
      });
    }
    return { before: current, after };
  });
  if (!result) return undefined;
  if (presentedStatus(result.before) !== presentedStatus(result.after)) await announceStatus(services, result.after);
  return result.after;
}

/** NodeStatusChanged with the Node JSON to the owner (nobody for an unclaimed machine). */
async function announceStatus(services: NodeServices, node: NodeRecord): Promise<void> {
  if (node.owner_id === null) return;
  const [withOwner] = await withOwners(services.db, [node]);
  applyAfterCommit(services, { notices: [{ userId: node.owner_id, event: NODE_STATUS_CHANGED, payload: presentNode(services.config, withOwner) }] });
}

// ---------------------------------------------------------------------------------------
// Adding nodes: console first, or claiming a machine by its code

/** POST /api/nodes: claims a machine when a code is given, else adds a node to install. */
export async function createNode(
  services: NodeServices,
  user: User,
  input: NewNodeInput,
  claimThrottle: ClaimThrottle | null,
): Promise<NodeRecord> {
  if (input.code) return claimNode(services, user, { ...input, code: input.code }, claimThrottle);
  // The body schema requires a type when no code is given.
  const type = input.type!;
  const { db, config } = services;
  const { salt, hash } = newNodeSecret(config.appKey);
  const now = timestamp();
  return db.transaction().execute(async (trx) => {
    const node = await trx
      .insertInto('nodes')
      .values({
        owner_id: user.id,
        name: null,
        type,
        dhcp: input.dhcp ? 1 : 0,
        hostname: input.hostname,
        ipv4: input.ipv4,
        ip_v6: null,
        notes: input.notes,
        status: 'to install',
        disabled_at: null,
        secret_hash: hash,
        secret_salt: salt,
        claim_code: null,
        claim_code_expires_at: null,
        info: '{}',
        last_active_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordActivity(trx, {
      causerId: user.id,
      description: 'node added',
      subject: subjectOf(node.id),
      properties: { type: node.type, hostname: node.hostname },
    });
    return node;
  });
}

/**
 * Claims the unclaimed machine showing `code`: one-time (the code is cleared), and only
 * before it expires. Wrong codes count towards the user's limit (429 once reached), so codes
 * cannot be guessed. The attempt is reserved before the code is looked up, so that
 * concurrent guesses cannot all be checked before the first failure is counted; a claim that
 * succeeds gives its reservation back.
 */
export async function claimNode(
  services: NodeServices,
  user: User,
  input: NewNodeInput & { code: string },
  claimThrottle: ClaimThrottle | null,
): Promise<NodeRecord> {
  const { db } = services;
  const [reservation] = claimThrottle
    ? await reserveEach(claimThrottle.throttle, [[`node-claim:user:${user.id}`, claimThrottle.limit]])
    : [];
  const now = timestamp();
  const claimed = await db.transaction().execute(async (trx) => {
    const candidate = await trx
      .selectFrom('nodes')
      .selectAll()
      .where('claim_code', '=', input.code)
      .where('owner_id', 'is', null)
      .where('claim_code_expires_at', '>', now)
      .executeTakeFirst();
    if (!candidate) return undefined;
    const node = await trx
      .updateTable('nodes')
      .set({
        owner_id: user.id,
        claim_code: null,
        claim_code_expires_at: null,
        type: input.type ?? candidate.type,
        dhcp: input.dhcp ? 1 : 0,
        hostname: input.hostname ?? candidate.hostname,
        ipv4: input.ipv4 ?? candidate.ipv4,
        notes: input.notes,
        updated_at: now,
      })
      .where('id', '=', candidate.id)
      // Of two users typing the same code at once, one wins.
      .where('owner_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!node) return undefined;
    await recordActivity(trx, { causerId: user.id, description: 'node claimed', subject: subjectOf(node.id), properties: { type: node.type } });
    return node;
  });
  if (!claimed) throw fieldError('code', CODE_UNKNOWN);
  if (claimThrottle && reservation) await claimThrottle.throttle.release(reservation);
  return claimed;
}

const expiresAtFrom = (now: Date) => timestamp(new Date(now.getTime() + CLAIM_CODE_TTL_MS));

/** Runs `insert` with a fresh code until the code is unique (a clash is rare: 26^6 codes). */
async function withFreshCode<T>(insert: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insert(newClaimCode());
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

export interface RegisteredMachine {
  node: NodeRecord;
  secret: string;
  code: string;
  codeExpiresAt: string;
}

/**
 * POST /agent/register (machine first): a node without an owner, its secret (for the
 * machine only), and a claim code to type into the console.
 */
export async function registerMachine(services: NodeServices, facts: AgentFacts, now: Date = new Date()): Promise<RegisteredMachine> {
  const { db, config } = services;
  // Machines that registered and were never claimed do not pile up.
  await db
    .deleteFrom('nodes')
    .where('owner_id', 'is', null)
    .where('claim_code_expires_at', '<', timestamp(new Date(now.getTime() - UNCLAIMED_RETENTION_MS)))
    .execute();
  const { salt, secret, hash } = newNodeSecret(config.appKey);
  const codeExpiresAt = expiresAtFrom(now);
  const created = timestamp(now);
  const addresses = addressesFrom(facts.addresses);
  const node = await withFreshCode((code) =>
    db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('nodes')
        .values({
          owner_id: null,
          name: null,
          type: facts.architecture === 'aarch64' || facts.architecture === 'arm64' ? 'arm64' : facts.architecture === 'x86_64' ? 'x86-64' : 'other',
          dhcp: 1,
          hostname: null,
          ipv4: addresses.ipv4,
          ip_v6: addresses.ipv6,
          notes: null,
          status: 'to install',
          disabled_at: null,
          secret_hash: hash,
          secret_salt: salt,
          claim_code: code,
          claim_code_expires_at: codeExpiresAt,
          info: JSON.stringify(factsIntoInfo({}, facts, created)),
          last_active_at: created,
          created_at: created,
          updated_at: created,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordActivity(trx, {
        causerId: null,
        description: 'node registered, waiting to be claimed',
        subject: subjectOf(inserted.id),
        properties: { hostname: facts.hostname ?? null },
      });
      return inserted;
    }),
  );
  return { node, secret, code: node.claim_code!, codeExpiresAt };
}

/** An unclaimed machine whose code expired gets a new one (GET /agent/node, which it polls). */
export async function refreshClaimCode(services: NodeServices, node: NodeRecord, now: Date = new Date()): Promise<NodeRecord> {
  if (node.owner_id !== null) return node;
  if (node.claim_code && node.claim_code_expires_at && node.claim_code_expires_at > timestamp(now)) return node;
  return withFreshCode(async (code) =>
    (await services.db
      .updateTable('nodes')
      .set({ claim_code: code, claim_code_expires_at: expiresAtFrom(now), updated_at: timestamp(now) })
      .where('id', '=', node.id)
      .where('owner_id', 'is', null)
      .returningAll()
      .executeTakeFirst()) ??
    // Claimed meanwhile.
    (await loadNode(services.db, node.id))!,
  );
}

// ---------------------------------------------------------------------------------------
// The agent

const isLoopback = (address: string) => address.startsWith('127.') || address === '::1';

/** The first usable IPv4 and IPv6 among reported addresses (CIDR suffixes dropped). */
export function addressesFrom(addresses: string[] | undefined): { ipv4: string | null; ipv6: string | null } {
  const bare = (addresses ?? []).map((address) => address.split('/')[0].trim()).filter((address) => address && !isLoopback(address));
  return {
    ipv4: bare.find((address) => isIpv4(address)) ?? null,
    // Global addresses only: link-local (fe80::/10) ones mean nothing off the machine's link.
    ipv6: bare.find((address) => address.includes(':') && !/^fe[89ab]/i.test(address)) ?? null,
  };
}

function factsIntoInfo(info: Record<string, unknown>, facts: AgentFacts, reportedAt: string): Record<string, unknown> {
  const system = { ...(info.system as Record<string, unknown> | undefined) };
  for (const [key, value] of Object.entries(facts)) if (value !== undefined) system[key] = value;
  return { ...info, system: { ...system, reported_at: reportedAt } };
}

/** Whether the cluster has seen the node (the watcher stored its Node's facts). */
const hasJoined = (node: NodeRecord) => parseInfo(node).cluster !== undefined;

const shorten = (text: string, max = 500) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface AgentReport {
  step: AgentStep;
  message: string | null;
  facts?: AgentFacts;
}

/**
 * POST /agent/report: every step is an activity entry ('failed' with severity error); the
 * first check-in moves 'to install' to 'installing'; facts land in `info.system` (and, on
 * DHCP, the reported addresses in ip_v4 / ip_v6). A node that failed before joining goes
 * to 'error', and back to 'installing' when the install is run again.
 */
export async function recordAgentStep(services: NodeServices, nodeId: number, report: AgentReport, now: Date = new Date()): Promise<NodeRecord | undefined> {
  const at = timestamp(now);
  const updated = await changeNode(services, nodeId, (current) => {
    const changes: NodeChanges = { last_active_at: at };
    if (report.facts) {
      changes.info = JSON.stringify(factsIntoInfo(parseInfo(current), report.facts, at));
      const addresses = addressesFrom(report.facts.addresses);
      if (current.dhcp === 1 && addresses.ipv4) changes.ipv4 = addresses.ipv4;
      if (addresses.ipv6) changes.ip_v6 = addresses.ipv6;
    }
    const joined = hasJoined(current);
    const notYetRunning = current.status === 'to install' || (current.status === 'error' && !joined);
    const message = report.message ? shorten(report.message) : null;
    let description: string;
    let severity: 'info' | 'error' = 'info';
    switch (report.step) {
      case 'checkin':
        description = `node checked in${report.facts?.hostname ? ` from ${report.facts.hostname}` : ''}`;
        if (notYetRunning) changes.status = 'installing';
        break;
      case 'installing':
        description = message ? `installing: ${message}` : 'installing';
        if (notYetRunning) changes.status = 'installing';
        break;
      case 'joined':
        description = message ? `joined the cluster: ${message}` : 'joined the cluster';
        if (notYetRunning) changes.status = 'installing';
        break;
      case 'failed':
        description = message ? `installation failed: ${message}` : 'installation failed';
        severity = 'error';
        if (!joined && (current.status === 'to install' || current.status === 'installing')) changes.status = 'error';
        break;
    }
    return {
      changes,
      activity: [{ causerId: null, description, severity, properties: { step: report.step, ...(message ? { message } : {}) } }],
    };
  });
  // Joined: look at the Node now rather than at the next watch event.
  if (updated?.name && report.step === 'joined') {
    try {
      const clusterNode = await services.cluster.readNode(updated.name);
      if (clusterNode) return (await applyClusterNode(services, updated.id, clusterNode, now)) ?? updated;
    } catch (error) {
      services.logger?.warn({ err: error, node: updated.name }, 'Could not read a node that reported joining');
    }
  }
  return updated;
}

/** POST /agent/heartbeat: the agent is alive. */
export async function recordHeartbeat(db: Kysely<Database>, node: NodeRecord, now: Date = new Date()): Promise<void> {
  await db.updateTable('nodes').set({ last_active_at: timestamp(now) }).where('id', '=', node.id).execute();
}

/** A Kubernetes-safe name: the host name's first label, lowercased, [a-z0-9-], ≤ 63. */
export function nodeNameBase(hostname: string | null | undefined): string {
  const label = (hostname ?? '').toLowerCase().split('.')[0];
  return label.replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50).replace(/-+$/, '');
}

/**
 * The node's Kubernetes name, chosen once: its host name (the console's, else the one it
 * reported), unless another console node or a cluster Node already has it; then
 * `<host>-<id>` (or `node-<id>` without a host name).
 */
async function chooseNodeName(services: NodeServices, node: NodeRecord): Promise<string> {
  if (node.name) return node.name;
  const { db, cluster } = services;
  const system = parseInfo(node).system as { hostname?: string } | undefined;
  const base = nodeNameBase(node.hostname ?? system?.hostname);
  const fallback = `${base || 'node'}-${node.id}`;
  let name = fallback;
  if (base) {
    const takenInConsole = await db.selectFrom('nodes').select('id').where('name', '=', base).executeTakeFirst();
    const takenInCluster = takenInConsole ? true : (await cluster.readNode(base)) !== null;
    if (!takenInConsole && !takenInCluster) name = base;
  }
  const set = (candidate: string) =>
    db.updateTable('nodes').set({ name: candidate, updated_at: timestamp() }).where('id', '=', node.id).where('name', 'is', null).returningAll().executeTakeFirst();
  let updated: NodeRecord | undefined;
  try {
    updated = await set(name);
  } catch (error) {
    if (!isUniqueViolation(error) || name === fallback) throw error;
    updated = await set(fallback);
  }
  // Named meanwhile by a concurrent call: keep that name.
  return updated?.name ?? (await loadNode(db, node.id))!.name!;
}

export interface IssuedBootstrap {
  token: string;
  ca_cert_hash: string;
  api_server: string;
  node_name: string;
  expires_at: string;
}

/**
 * POST /agent/bootstrap: a short-lived kubeadm bootstrap token, through the cluster gateway,
 * for a claimed node that is not disabled. The token itself is never stored nor logged.
 */
export async function issueBootstrapToken(services: NodeServices, node: NodeRecord): Promise<IssuedBootstrap> {
  if (node.owner_id === null) throw new HttpError(409, 'This node has not been claimed yet: enter its code in the console first.');
  if (node.disabled_at) throw new HttpError(403, 'This node is disabled.');
  const { name, token } = await withNodeCluster(async () => {
    const chosen = await chooseNodeName(services, node);
    const issued = await services.cluster.createBootstrapToken({ ttlSeconds: BOOTSTRAP_TOKEN_TTL_SECONDS, description: `Testbed node ${node.id} (${chosen})` });
    return { name: chosen, token: issued };
  });
  await changeNode(services, node.id, (current) => ({
    changes: current.status === 'to install' ? { status: 'installing' } : {},
    activity: [{ causerId: null, description: 'bootstrap token issued', properties: { node_name: name, expires_at: token.expiresAt } }],
  }));
  return { token: token.token, ca_cert_hash: token.caCertHash, api_server: token.apiServer, node_name: name, expires_at: token.expiresAt };
}

// ---------------------------------------------------------------------------------------
// The cluster's view (node watcher)

const clusterFacts = (cluster: ClusterNode) => ({
  nodeInfo: cluster.nodeInfo,
  capacity: cluster.capacity,
  addresses: cluster.addresses,
});

/**
 * Brings a console node in line with its cluster Node (`null`: the cluster has none of that
 * name): status from the Node's conditions, lastActive from its heartbeats, and its facts
 * in `info.cluster`. A node that was running and whose Node is gone becomes 'unknown'.
 */
export async function applyClusterNode(
  services: NodeServices,
  nodeId: number,
  cluster: ClusterNode | null,
  now: Date = new Date(),
): Promise<NodeRecord | undefined> {
  return changeNode(services, nodeId, (current) => {
    if (!current.name) return null;
    if (!cluster) {
      if (current.status === 'unknown' || !hasJoined(current)) return null;
      return { changes: { status: 'unknown' }, activity: [{ causerId: null, description: 'the node is no longer in the cluster', severity: 'warning' }] };
    }
    const changes: NodeChanges = {};
    // Cordoned by the console's disable: that is not a problem of the node.
    let status: NodeStatus = statusFromNode({ ...cluster, unschedulable: cluster.unschedulable && !current.disabled_at }, now);
    // A freshly joined Node is NotReady until its kubelet is up: that is still 'installing'
    // (spec: installing while joining), not an error. A failed install is reported by the agent.
    if (current.status === 'installing' && (status === 'error' || status === 'unknown')) status = 'installing';
    if (status !== current.status) changes.status = status;
    const heartbeat = lastHeartbeat(cluster);
    if (heartbeat && (!current.last_active_at || Date.parse(heartbeat) - Date.parse(current.last_active_at) >= LAST_ACTIVE_RESOLUTION_MS)) {
      changes.last_active_at = heartbeat;
    }
    const info = parseInfo(current);
    const facts = clusterFacts(cluster);
    if (JSON.stringify(info.cluster) !== JSON.stringify(facts)) changes.info = JSON.stringify({ ...info, cluster: facts });
    if (current.dhcp === 1 && !current.ipv4) {
      const internal = cluster.addresses.find((address) => address.type === 'InternalIP' && isIpv4(address.address));
      if (internal) changes.ipv4 = internal.address;
    }
    return Object.keys(changes).length > 0 ? { changes } : null;
  });
}

/** Console nodes that have a Kubernetes name: the ones the watcher follows. */
export const namedNodes = (db: Kysely<Database>) =>
  db.selectFrom('nodes').select(['id', 'name']).where('name', 'is not', null).execute() as Promise<{ id: number; name: string }[]>;

// ---------------------------------------------------------------------------------------
// Platform admins

/**
 * Disables (cordons, and marks the console node disabled) or enables a cluster Node. Nodes
 * the console did not add are only cordoned/uncordoned; the entry has no node subject then.
 */
export async function setClusterNodeDisabled(
  services: NodeServices,
  admin: User,
  name: string,
  disabled: boolean,
): Promise<{ cluster: ClusterNode; node: NodeRecord | undefined }> {
  const cluster = await withNodeCluster(() => services.cluster.setNodeUnschedulable(name, disabled));
  const existing = await services.db.selectFrom('nodes').select('id').where('name', '=', name).executeTakeFirst();
  const description = disabled ? 'node disabled' : 'node enabled';
  const severity = disabled ? 'warning' : 'info';
  if (!existing) {
    await recordActivity(services.db, { causerId: admin.id, description, severity, properties: { node_name: name } });
    return { cluster, node: undefined };
  }
  const node = await changeNode(
    services,
    existing.id,
    (current) => ({
      changes: { disabled_at: disabled ? (current.disabled_at ?? timestamp()) : null },
      activity: [{ causerId: admin.id, description, severity, properties: { node_name: name } }],
    }),
    admin.id,
  );
  return { cluster, node };
}
