import type { BackgroundTasks } from '../background.js';
import type { Broadcaster } from '../broadcasting/broadcaster.js';
import type { ClusterSync } from './clusterSync.js';

/** A realtime event for one user's private channel. */
export interface UserNotice {
  userId: number;
  event: string;
  payload: unknown;
}

/** Notices computed in the background; `label` names the task in logs. */
export interface LaterNotices {
  label: string;
  compute: () => Promise<UserNotice[]>;
}

/**
 * What must follow a change once its transaction has committed. A domain function says it (in
 * its result, or by building one of these); `applyAfterCommit` is the one place that does it, so
 * no effect can run before the commit or be started twice in two styles.
 */
export interface AfterCommit {
  /** Cluster state may differ from the database now: the reconciler should look soon. */
  clusterSync?: boolean;
  /**
   * These users' rights changed: the realtime server re-checks their subscriptions (and drops the
   * ones they may no longer hold), on every replica.
   */
  rightsChanged?: readonly number[];
  /** Realtime events to users' private channels. */
  notices?: readonly UserNotice[];
  /**
   * Realtime events that need reading first (a request as the list presents it, who may decide
   * it): computed in the background after the commit, so the answer does not wait for them.
   */
  laterNotices?: readonly LaterNotices[];
  /** Mails were written to the outbox in the transaction: send them now. */
  mail?: boolean;
}

/**
 * The shared services the effects go through: the app's context has them all; background work
 * (the node watcher) has only what its effects need, and asking for a missing one is a bug.
 */
export interface AfterCommitServices {
  broadcaster: Broadcaster;
  clusterSync?: ClusterSync;
  outbox?: { kick(): void };
  tasks?: Pick<BackgroundTasks, 'run'>;
}

/** Several changes' effects as one: each user and the cluster are told once. */
export function mergeAfterCommit(...effects: (AfterCommit | null | undefined)[]): AfterCommit {
  const rights = new Set<number>();
  const notices: UserNotice[] = [];
  const laterNotices: LaterNotices[] = [];
  let clusterSync = false;
  let mail = false;
  for (const effect of effects) {
    if (!effect) continue;
    clusterSync ||= effect.clusterSync === true;
    mail ||= effect.mail === true;
    for (const id of effect.rightsChanged ?? []) rights.add(id);
    notices.push(...(effect.notices ?? []));
    laterNotices.push(...(effect.laterNotices ?? []));
  }
  return { clusterSync, mail, rightsChanged: [...rights], notices, laterNotices };
}

/**
 * Applies what must follow committed changes. Cluster first (the reconciler's pass is the slow
 * part), then the realtime rights re-check, then the notices, then the mail.
 */
export function applyAfterCommit(services: AfterCommitServices, ...effects: (AfterCommit | null | undefined)[]): void {
  const { clusterSync, rightsChanged = [], notices = [], laterNotices = [], mail } = mergeAfterCommit(...effects);
  const { broadcaster } = services;
  if (clusterSync) need(services.clusterSync, 'clusterSync').request();
  if (rightsChanged.length > 0) broadcaster.rightsChanged([...rightsChanged]);
  for (const notice of notices) broadcaster.toUser(notice.userId, notice.event, notice.payload);
  for (const later of laterNotices) {
    need(services.tasks, 'tasks').run(later.label, async () => {
      for (const notice of await later.compute()) broadcaster.toUser(notice.userId, notice.event, notice.payload);
    });
  }
  if (mail) need(services.outbox, 'outbox').kick();
}

function need<T>(service: T | undefined, name: string): T {
  if (!service) throw new Error(`applyAfterCommit: an effect needs ${name}, which these services lack`);
  return service;
}

/**
 * People's rights in teams or workspaces changed: the reconciler brings their cluster access in
 * line, and the realtime server re-checks their subscriptions.
 */
export const accessChanged = (userIds: readonly number[]): AfterCommit =>
  userIds.length === 0 ? { clusterSync: true } : { clusterSync: true, rightsChanged: userIds };
