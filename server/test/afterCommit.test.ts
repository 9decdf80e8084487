import { describe, expect, it } from 'vitest';
import { accessChanged, applyAfterCommit, mergeAfterCommit } from '../src/effects/afterCommit.js';
import { createClusterSync } from '../src/effects/clusterSync.js';

// What follows a commit is applied in one place; these are its rules, called directly.

function recordingServices() {
  const calls: string[] = [];
  const clusterSync = createClusterSync();
  clusterSync.listen(() => calls.push('clusterSync'));
  const pending: Promise<unknown>[] = [];
  return {
    calls,
    pending,
    services: {
      broadcaster: {
        toUser: (userId: number, event: string) => calls.push(`toUser ${userId} ${event}`),
        toWorkspace: () => calls.push('toWorkspace'),
        rightsChanged: (userIds: number[]) => calls.push(`rightsChanged ${userIds.join(',')}`),
      },
      clusterSync,
      outbox: { kick: () => calls.push('mail') },
      tasks: { run: (_label: string, task: () => Promise<unknown>) => void pending.push(task()) },
    },
  };
}

describe('applyAfterCommit', () => {
  it('does nothing for an empty change', () => {
    const { calls, services } = recordingServices();
    applyAfterCommit(services, {}, undefined, null);
    expect(calls).toEqual([]);
  });

  it('tells the cluster once, each person once, then the notices, then the mail', () => {
    const { calls, services } = recordingServices();
    applyAfterCommit(
      services,
      { mail: true, rightsChanged: [3, 1] },
      accessChanged([1, 2]),
      { notices: [{ userId: 7, event: 'RequestDecided', payload: {} }] },
    );
    expect(calls).toEqual(['clusterSync', 'rightsChanged 3,1,2', 'toUser 7 RequestDecided', 'mail']);
  });

  it('computes later notices in the background and sends what they answer', async () => {
    const { calls, pending, services } = recordingServices();
    applyAfterCommit(services, { laterNotices: [{ label: 'test', compute: async () => [{ userId: 5, event: 'RequestCreated', payload: {} }] }] });
    expect(calls).toEqual([]);
    await Promise.all(pending);
    expect(calls).toEqual(['toUser 5 RequestCreated']);
  });

  it('refuses an effect the services cannot carry out, instead of dropping it', () => {
    const { services } = recordingServices();
    const { broadcaster } = services;
    expect(() => applyAfterCommit({ broadcaster }, { mail: true })).toThrow(/outbox/);
    expect(() => applyAfterCommit({ broadcaster }, { clusterSync: true })).toThrow(/clusterSync/);
    expect(() => applyAfterCommit({ broadcaster }, { laterNotices: [{ label: 'x', compute: async () => [] }] })).toThrow(/tasks/);
  });
});

describe('mergeAfterCommit', () => {
  it('keeps every notice and each person once', () => {
    const merged = mergeAfterCommit(
      { rightsChanged: [1, 2], notices: [{ userId: 1, event: 'a', payload: 1 }] },
      { rightsChanged: [2], notices: [{ userId: 1, event: 'a', payload: 1 }] },
    );
    expect(merged.rightsChanged).toEqual([1, 2]);
    expect(merged.notices).toHaveLength(2);
    expect(merged.clusterSync).toBe(false);
    expect(merged.mail).toBe(false);
  });
});

describe('ClusterSync', () => {
  it('reaches its listeners until they stop listening', () => {
    const sync = createClusterSync();
    let kicks = 0;
    const stop = sync.listen(() => kicks++);
    sync.request();
    stop();
    sync.request();
    expect(kicks).toBe(1);
  });
});
