import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { ClusterSync } from '../effects/clusterSync.js';
import type { Database, WorkspaceRole } from '../db/schema.js';
import { isEntitled, membershipRows } from './entitlement.js';
import { ClusterError, type ClusterGateway, ClusterUnavailable, type MemberTarget } from './gateway.js';
import { sweepMemberAccess } from './sweep.js';

// The database is the source of truth; the reconciler brings the cluster in line with it.
// Decisions only mark workspaces and memberships `pending` (inside their transaction, see
// requests/routing.ts); a pass applies what is pending, idempotently. A pass that fails
// (cluster down) is retried with exponential backoff (1 s, 2 s, 4 s … capped at 60 s);
// everything is re-applied at start and every few minutes (a restarted sandbox, or objects
// deleted by hand, come back). A permanent refusal (`invalid`) marks the row `error` and the
// request that asked for it `Error`, with the cluster's message.

export interface ReconcilerOptions {
  db: Kysely<Database>;
  gateway: ClusterGateway;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often to look for pending work (ms). */
  pollIntervalMs?: number;
  /** How often to re-apply everything (ms). */
  resyncIntervalMs?: number;
  /** Backoff cap after failed passes (ms). */
  maxBackoffMs?: number;
  /** Told after every pass (the metrics count them). */
  onPass?: (result: PassResult) => void;
  /**
   * Whether the background loop's full passes pace themselves (default true): pending work
   * between their items, and a pause as long as each item took. `reconcileOnce` never paces.
   */
  pacedResync?: boolean;
  /** Where decisions ask for a pass (the app's `clusterSync`); while running, each request kicks. */
  sync?: ClusterSync;
}

export interface PassResult {
  applied: number;
  failed: number;
  /** The last error of the pass, if any. */
  lastError: string | null;
}

export interface Reconciler {
  /** One pass now: pending work (or, with `all`, everything), ignoring the backoff. */
  reconcileOnce(options?: { all?: boolean }): Promise<PassResult>;
  /** Ask for a pass soon (after a decision); fire-and-forget. */
  kick(): void;
  /** The background loop: a full pass now, then polling, backoff and periodic resyncs. */
  start(): void;
  stop(): Promise<void>;
  readonly lastError: string | null;
}

/** What a pass did to a membership: the role it bound, or null when it revoked the access. */
interface AppliedAccess extends MemberTarget {
  id: number;
  role: WorkspaceRole | null;
}

/** The workspace columns an admin's quota lives in. */
const QUOTA_COLUMNS = ['quota_cpu', 'quota_memory', 'quota_pods', 'quota_storage'] as const;

/** A paced full pass looks for pending work after this many items. */
const PENDING_CHECK_EVERY = 25;
/** The longest pause after one item of a paced full pass (a cluster call that timed out). */
const MAX_PAUSE_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Memberships read again per query after a pass (well under any database's parameter limit). */
const RECHECK_BATCH = 500;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isPermanent = (error: unknown) => error instanceof ClusterError && error.kind === 'invalid';

export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { db, gateway, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const resyncIntervalMs = options.resyncIntervalMs ?? 5 * 60_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;

  let chain: Promise<unknown> = Promise.resolve();
  let failures = 0;
  let nextAttemptAt = 0;
  let nextResyncAt = 0;
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let kickTimer: NodeJS.Timeout | undefined;
  let busy = false;
  let stopListening: (() => void) | undefined;
  /** Set by stop(): a paced pass ends after its current item instead of running its course. */
  let stopping = false;
  const pacedResync = options.pacedResync ?? true;

  /**
   * Between two items of a background full pass: pending work first (a decision made now is not
   * kept waiting behind thousands of unchanged workspaces), then a pause as long as the item
   * took, so that the resync uses at most about half of the process's time and requests keep
   * their share however many workspaces there are.
   */
  function pacer(paced: boolean, result: PassResult): (itemStartedAt: number) => Promise<void> {
    if (!paced) return async () => undefined;
    let items = 0;
    return async (itemStartedAt) => {
      const spent = performance.now() - itemStartedAt;
      items += 1;
      if (items % PENDING_CHECK_EVERY === 0 && !stopping && (await hasPending())) await applyPending(result);
      await sleep(Math.min(spent, MAX_PAUSE_MS));
    };
  }

  async function applyWorkspaces(all: boolean, result: PassResult, paced = false): Promise<void> {
    const between = pacer(paced, result);
    let query = db
      .selectFrom('workspaces as w')
      .innerJoin('teams as t', 't.id', 'w.team_id')
      .select(['w.id', 'w.name', 'w.namespace', 'w.cluster_state', 'w.suspended_at', 't.name as team_name', 't.allocation_used_up_at'])
      .select(QUOTA_COLUMNS.map((column) => `w.${column}` as const));
    query = all ? query.where('w.cluster_state', '!=', 'error') : query.where('w.cluster_state', '=', 'pending');
    for (const workspace of await query.orderBy('w.id').execute()) {
      if (paced && stopping) return;
      const startedAt = performance.now();
      try {
        // The quota an admin set (null values: the defaults) goes with every ensure.
        const quota = { cpu: workspace.quota_cpu, memory: workspace.quota_memory, pods: workspace.quota_pods, storage: workspace.quota_storage };
        // A suspended workspace (docs/lifecycle.md) keeps its namespace but runs no pod.
        const suspended = workspace.suspended_at !== null;
        // A team that used up its allocation: no new pod (docs/usage.md).
        const usedUp = workspace.allocation_used_up_at;
        await gateway.ensureWorkspace({ namespace: workspace.namespace, teamName: workspace.team_name, workspaceName: workspace.name, quota, suspended, allocationUsedUp: usedUp !== null });
        await db
          .updateTable('workspaces')
          .set({ cluster_state: 'ready', cluster_error: null, cluster_synced_at: timestamp() })
          .where('id', '=', workspace.id)
          // Suspended, renewed, its quota changed, or the allocation used up or restored meanwhile:
          // left pending, for the next pass to apply (a `ready` here would hide the change until
          // the periodic resync).
          .where((eb) => (suspended ? eb('suspended_at', '=', workspace.suspended_at) : eb('suspended_at', 'is', null)))
          .where((eb) =>
            eb.and(
              QUOTA_COLUMNS.map((column) => (workspace[column] === null ? eb(column, 'is', null) : eb(column, '=', workspace[column]))),
            ),
          )
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('teams')
                .select('teams.id')
                .whereRef('teams.id', '=', 'workspaces.team_id')
                .where('teams.allocation_used_up_at', usedUp === null ? 'is' : '=', usedUp),
            ),
          )
          .execute();
        result.applied++;
      } catch (error) {
        result.failed++;
        result.lastError = describe(error);
        if (isPermanent(error)) {
          await markWorkspaceRefused(workspace.id, workspace.namespace, describe(error));
        } else {
          await db
            .updateTable('workspaces')
            .set({ cluster_state: 'pending', cluster_error: describe(error) })
            .where('id', '=', workspace.id)
            .execute();
        }
        if (error instanceof ClusterUnavailable || (error instanceof ClusterError && error.kind === 'unreachable')) return;
      }
      await between(startedAt);
    }
  }

  async function applyMemberships(all: boolean, result: PassResult, paced = false): Promise<void> {
    const between = pacer(paced, result);
    let query = membershipRows(db).where('w.cluster_state', '=', 'ready');
    query = all ? query.where('wm.cluster_state', '!=', 'error') : query.where('wm.cluster_state', '=', 'pending');
    const members = await query.orderBy('wm.id').execute();
    if (members.length === 0) return;
    try {
      await gateway.ensureClusterRoles();
    } catch (error) {
      result.failed++;
      result.lastError = describe(error);
      return;
    }
    const applied: AppliedAccess[] = [];
    for (const member of members) {
      if (paced && stopping) break;
      const startedAt = performance.now();
      // The access rules of access/access.ts: a disabled team membership (or user), a
      // suspended team or a suspended (ended) workspace voids the role.
      const entitled = isEntitled(member);
      try {
        const target = { namespace: member.namespace, workspaceId: member.workspace_id, userId: member.user_id };
        if (entitled) await gateway.ensureMemberAccess({ ...target, role: member.role });
        else await gateway.revokeMemberAccess(target);
        await db
          .updateTable('workspace_members')
          .set({ cluster_state: 'ready', cluster_error: null, cluster_synced_at: timestamp() })
          .where('id', '=', member.id)
          .execute();
        applied.push({ ...target, id: member.id, role: entitled ? member.role : null });
        result.applied++;
      } catch (error) {
        result.failed++;
        result.lastError = describe(error);
        if (isPermanent(error)) {
          await markMembershipRefused(member, describe(error));
        } else {
          await db
            .updateTable('workspace_members')
            .set({ cluster_state: 'pending', cluster_error: describe(error) })
            .where('id', '=', member.id)
            .execute();
        }
        if (error instanceof ClusterUnavailable || (error instanceof ClusterError && error.kind === 'unreachable')) break;
      }
      await between(startedAt);
    }
    await recheckApplied(applied, result);
  }

  /**
   * A right that ended while its membership was being applied (between the read above and the
   * `ready` written after the cluster call) would otherwise be overwritten by that `ready` and
   * wait for the next full resync. Read again after every `ready` is written: an access granted
   * to a right that is gone is revoked now; anything else that changed is marked pending again.
   */
  async function recheckApplied(applied: AppliedAccess[], result: PassResult): Promise<void> {
    for (let start = 0; start < applied.length; start += RECHECK_BATCH) {
      const batch = applied.slice(start, start + RECHECK_BATCH);
      const rows = await membershipRows(db)
        .where(
          'wm.id',
          'in',
          batch.map((access) => access.id),
        )
        .execute();
      const now = new Map(rows.map((row) => [row.id, isEntitled(row) ? row.role : null]));
      for (const access of batch) {
        const role = now.has(access.id) ? (now.get(access.id) ?? null) : null;
        if (role === access.role) continue;
        try {
          if (access.role !== null && role === null) {
            await gateway.revokeMemberAccess(access);
          } else {
            await db.updateTable('workspace_members').set({ cluster_state: 'pending', cluster_error: null }).where('id', '=', access.id).execute();
          }
        } catch (error) {
          result.failed++;
          result.lastError = describe(error);
          await db.updateTable('workspace_members').set({ cluster_state: 'pending', cluster_error: describe(error) }).where('id', '=', access.id).execute();
        }
      }
    }
  }

  /** Memberships deleted from the database: their access goes, then their row here. */
  async function applyRevocations(result: PassResult): Promise<void> {
    const revocations = await db.selectFrom('cluster_revocations').selectAll().orderBy('id').execute();
    for (const revocation of revocations) {
      // The same person may have been added back meanwhile: then the membership pass owns it.
      const member = await db
        .selectFrom('workspace_members')
        .select('id')
        .where('workspace_id', '=', revocation.workspace_id)
        .where('user_id', '=', revocation.user_id)
        .executeTakeFirst();
      try {
        if (!member) {
          await gateway.revokeMemberAccess({ namespace: revocation.namespace, workspaceId: revocation.workspace_id, userId: revocation.user_id });
        }
        await db.deleteFrom('cluster_revocations').where('id', '=', revocation.id).execute();
        result.applied++;
      } catch (error) {
        result.failed++;
        result.lastError = describe(error);
        await db.updateTable('cluster_revocations').set({ last_error: describe(error) }).where('id', '=', revocation.id).execute();
        if (error instanceof ClusterUnavailable || (error instanceof ClusterError && error.kind === 'unreachable')) return;
      }
    }
  }

  /**
   * Namespaces of deleted workspaces (workspaces/deletion.ts): deleted, then their row here.
   * Runs before the revocations, whose bindings go with the namespace.
   */
  async function applyDeletions(result: PassResult): Promise<void> {
    const deletions = await db.selectFrom('cluster_deletions').selectAll().orderBy('id').execute();
    for (const deletion of deletions) {
      try {
        await gateway.deleteWorkspaceNamespace(deletion.namespace);
        await db.deleteFrom('cluster_deletions').where('id', '=', deletion.id).execute();
        result.applied++;
      } catch (error) {
        result.failed++;
        result.lastError = describe(error);
        if (isPermanent(error)) {
          // Refused for good (not the console's namespace): said once in the activity log, not retried.
          await db.transaction().execute(async (trx) => {
            await trx.deleteFrom('cluster_deletions').where('id', '=', deletion.id).execute();
            await recordActivity(trx, {
              causerId: null,
              description: 'namespace deletion refused by the cluster',
              subject: { type: 'workspace', id: deletion.workspace_id },
              severity: 'error',
              properties: { namespace: deletion.namespace, error: describe(error) },
            });
          });
          logger?.error({ namespace: deletion.namespace, error: describe(error) }, 'The cluster refused a namespace deletion');
          continue;
        }
        await db.updateTable('cluster_deletions').set({ last_error: describe(error) }).where('id', '=', deletion.id).execute();
        if (error instanceof ClusterUnavailable || (error instanceof ClusterError && error.kind === 'unreachable')) return;
      }
    }
  }

  /** Full passes: member service accounts and role bindings that no membership justifies go (sweep.ts). */
  async function applySweep(result: PassResult): Promise<void> {
    try {
      const deleted = await sweepMemberAccess(db, gateway);
      if (deleted.length > 0) {
        result.applied += deleted.length;
        logger?.warn({ deleted }, 'Deleted cluster access that no membership justifies');
      }
    } catch (error) {
      result.failed++;
      result.lastError = describe(error);
    }
  }

  async function markWorkspaceRefused(workspaceId: number, namespace: string, message: string): Promise<void> {
    const now = timestamp();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('workspaces').set({ cluster_state: 'error', cluster_error: message, cluster_synced_at: now }).where('id', '=', workspaceId).execute();
      await trx
        .updateTable('requests')
        .set({ status: 'Error', decision_message: `The cluster refused this workspace: ${message}`, updated_at: now })
        .where('type', '=', 'CreateWorkspace')
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'Approved')
        .execute();
      await recordActivity(trx, {
        causerId: null,
        description: 'workspace refused by the cluster',
        subject: { type: 'workspace', id: workspaceId },
        severity: 'error',
        properties: { namespace, error: message },
      });
    });
    logger?.error({ workspaceId, namespace, error: message }, 'The cluster refused a workspace');
  }

  async function markMembershipRefused(member: { id: number; workspace_id: number; user_id: number; namespace: string }, message: string): Promise<void> {
    const now = timestamp();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('workspace_members').set({ cluster_state: 'error', cluster_error: message, cluster_synced_at: now }).where('id', '=', member.id).execute();
      await trx
        .updateTable('requests')
        .set({ status: 'Error', decision_message: `The cluster refused this access: ${message}`, updated_at: now })
        .where('type', 'in', ['JoinWorkspace', 'CreateWorkspace'])
        .where('workspace_id', '=', member.workspace_id)
        .where('user_id', '=', member.user_id)
        .where('status', '=', 'Approved')
        .execute();
      await recordActivity(trx, {
        causerId: null,
        description: 'workspace access refused by the cluster',
        subject: { type: 'workspace', id: member.workspace_id },
        severity: 'error',
        properties: { namespace: member.namespace, user_id: member.user_id, error: message },
      });
    });
    logger?.error({ userId: member.user_id, namespace: member.namespace, error: message }, 'The cluster refused workspace access');
  }

  /** What is pending, now, inside a paced full pass. */
  async function applyPending(result: PassResult): Promise<void> {
    await applyWorkspaces(false, result);
    await applyMemberships(false, result);
    await applyDeletions(result);
    await applyRevocations(result);
  }

  async function pass(all: boolean, paced = false): Promise<PassResult> {
    const result: PassResult = { applied: 0, failed: 0, lastError: null };
    await applyWorkspaces(all, result, paced);
    await applyMemberships(all, result, paced);
    await applyDeletions(result);
    await applyRevocations(result);
    if (all && !(paced && stopping)) await applySweep(result);
    options.onPass?.(result);
    if (result.failed > 0) {
      failures++;
      nextAttemptAt = Date.now() + Math.min(maxBackoffMs, 1000 * 2 ** (failures - 1));
      lastError = result.lastError;
      logger?.warn({ failed: result.failed, error: result.lastError, retryInMs: nextAttemptAt - Date.now() }, 'Cluster sync incomplete');
    } else {
      failures = 0;
      nextAttemptAt = 0;
      lastError = null;
    }
    return result;
  }

  /** Passes never overlap. */
  function serialized(all: boolean, paced = false): Promise<PassResult> {
    const next = chain.then(() => pass(all, paced));
    chain = next.catch(() => undefined);
    return next;
  }

  const hasPending = async () => {
    const [workspace, member, revocation, deletion] = await Promise.all([
      db.selectFrom('workspaces').select('id').where('cluster_state', '=', 'pending').limit(1).executeTakeFirst(),
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .select('wm.id')
        .where('wm.cluster_state', '=', 'pending')
        .where('w.cluster_state', '=', 'ready')
        .limit(1)
        .executeTakeFirst(),
      db.selectFrom('cluster_revocations').select('id').limit(1).executeTakeFirst(),
      db.selectFrom('cluster_deletions').select('id').limit(1).executeTakeFirst(),
    ]);
    return workspace !== undefined || member !== undefined || revocation !== undefined || deletion !== undefined;
  };

  async function tick(): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      const now = Date.now();
      if (now >= nextResyncAt) {
        nextResyncAt = now + resyncIntervalMs;
        await serialized(true, pacedResync);
      } else if (now >= nextAttemptAt && (await hasPending())) {
        await serialized(false);
      }
    } catch (error) {
      logger?.error({ error: describe(error) }, 'Cluster sync pass failed');
    } finally {
      busy = false;
    }
  }

  const reconciler: Reconciler = {
    reconcileOnce: ({ all = false } = {}) => serialized(all),
    kick() {
      if (!timer || kickTimer) return;
      // Shortly after the decision's transaction has committed; the poll is the safety net.
      kickTimer = setTimeout(() => {
        kickTimer = undefined;
        nextAttemptAt = 0;
        void tick();
      }, 50);
      kickTimer.unref();
    },
    start() {
      if (timer) return;
      stopping = false;
      stopListening = options.sync?.listen(() => reconciler.kick());
      timer = setInterval(() => void tick(), pollIntervalMs);
      timer.unref();
      void tick();
    },
    async stop() {
      stopping = true;
      stopListening?.();
      stopListening = undefined;
      clearInterval(timer);
      clearTimeout(kickTimer);
      timer = undefined;
      kickTimer = undefined;
      await chain;
    },
    get lastError() {
      return lastError;
    },
  };
  return reconciler;
}

/** The reconciler's queue as the metrics report it: work waiting, and work the cluster refused. */
export async function clusterWorkCounts(db: Kysely<Database>): Promise<{ pending: number; failed: number }> {
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  const [workspaces, members, revocations, deletions, failedWorkspaces, failedMembers] = await Promise.all([
    count(db.selectFrom('workspaces').select((eb) => eb.fn.countAll().as('n')).where('cluster_state', '=', 'pending')),
    count(db.selectFrom('workspace_members').select((eb) => eb.fn.countAll().as('n')).where('cluster_state', '=', 'pending')),
    count(db.selectFrom('cluster_revocations').select((eb) => eb.fn.countAll().as('n'))),
    count(db.selectFrom('cluster_deletions').select((eb) => eb.fn.countAll().as('n'))),
    count(db.selectFrom('workspaces').select((eb) => eb.fn.countAll().as('n')).where('cluster_state', '=', 'error')),
    count(db.selectFrom('workspace_members').select((eb) => eb.fn.countAll().as('n')).where('cluster_state', '=', 'error')),
  ]);
  return { pending: workspaces + members + revocations + deletions, failed: failedWorkspaces + failedMembers };
}
