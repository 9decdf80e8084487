import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { isUniqueViolation, timestamp } from '../db/database.js';
import type { Database, NodeRecord } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { applyClusterNode } from './clusterSync.js';
import { claimNodeName, nodeNameTaken } from './names.js';
import { parseInfo } from './presenter.js';
import { changeNode, hasJoined, loadNode, type NodeChanges, type NodeServices, nodeSubject, withNodeCluster } from './records.js';
import type { AgentFacts, AgentStep } from './schemas.js';
import { isIpv4 } from './schemas.js';
import { CLAIM_CODE_TTL_MS, isWellFormedSecret, newClaimCode, newNodeSecret, sha256Hex } from './secrets.js';

// What the node agent on a contributed machine does (docs/nodes-contract.md, "Agent
// protocol"), authenticated by the node's secret: register a machine nobody claimed yet (and
// keep its claim code fresh), report its install steps and heartbeats, and get a bootstrap
// token to join the cluster. The routes are agentRoutes.ts.

/** How long a bootstrap token lets a machine join: enough for one `kubeadm join`. */
export const BOOTSTRAP_TOKEN_TTL_SECONDS = 30 * 60;
/** Machine-first nodes nobody claimed are forgotten this long after their code expired. */
const UNCLAIMED_RETENTION_MS = 24 * 60 * 60_000;

/** The node a `tbn_…` secret belongs to, or undefined. */
export async function findNodeBySecret(db: Kysely<Database>, secret: string | undefined | null): Promise<NodeRecord | undefined> {
  if (!secret || !isWellFormedSecret(secret)) return undefined;
  return db.selectFrom('nodes').selectAll().where('secret_hash', '=', sha256Hex(secret)).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------
// Machine first: registering, and the claim code people type into the console

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
        subject: nodeSubject(inserted.id),
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
// What the machine reports, installing and joining

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
 * reported), unless another console node goes by it (as its name or its hostname, names.ts)
 * or a cluster Node has it; then `<host>-<id>` (or `node-<id>` without a host name).
 */
async function chooseNodeName(services: NodeServices, node: NodeRecord): Promise<string> {
  if (node.name) return node.name;
  const { db, cluster } = services;
  const system = parseInfo(node).system as { hostname?: string } | undefined;
  const base = nodeNameBase(node.hostname ?? system?.hostname);
  const fallback = `${base || 'node'}-${node.id}`;
  let name = fallback;
  // The cluster is asked outside the transaction below: no lock is held across a network call.
  if (base && !(await nodeNameTaken(db, base, node.id)) && (await cluster.readNode(base)) === null) name = base;
  const set = (executor: Kysely<Database>, candidate: string) =>
    executor.updateTable('nodes').set({ name: candidate, updated_at: timestamp() }).where('id', '=', node.id).where('name', 'is', null).returningAll().executeTakeFirst();
  let updated: NodeRecord | undefined;
  try {
    updated = await db.transaction().execute(async (trx) =>
      // Checked again under the name's lock: a node added meanwhile under this hostname keeps it.
      set(trx, name !== fallback && !(await claimNodeName(trx, name, node.id)) ? fallback : name),
    );
  } catch (error) {
    if (!isUniqueViolation(error) || name === fallback) throw error;
    updated = await set(db, fallback);
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
