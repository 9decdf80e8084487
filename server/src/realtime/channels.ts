import type { Kysely } from 'kysely';
import type { Database, User } from '../db/schema.js';
import { type Access, loadAccess } from '../access/access.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { POD_LOG_CHANNEL } from './clusterFeeds.js';

// Who may listen on which private channel. POST /broadcasting/auth asks before signing a
// subscription, and the rights re-check (rights.ts) asks again for open subscriptions.

const USER_CHANNEL = /^private-App\.User\.(\d{1,9})$/;
const WORKSPACE_CHANNEL = /^private-workspace\.(\d{1,9})$/;

export type ChannelRule = { kind: 'user'; userId: number } | { kind: 'workspace'; workspaceId: number } | { kind: 'pod-logs'; workspaceId: number };

/** What a channel name is about, or null for a channel nobody may listen on. */
export function channelRule(channel: string): ChannelRule | null {
  const user = USER_CHANNEL.exec(channel);
  if (user) return { kind: 'user', userId: Number(user[1]) };
  const workspace = WORKSPACE_CHANNEL.exec(channel);
  if (workspace) return { kind: 'workspace', workspaceId: Number(workspace[1]) };
  const log = POD_LOG_CHANNEL.exec(channel);
  if (log) return { kind: 'pod-logs', workspaceId: Number(log[1]) };
  return null;
}

/**
 * The rule itself: their own user channel; a workspace channel when they are a member of the
 * workspace (with an enabled team membership) or a platform admin; a pod-log channel of a
 * workspace when they are a member of it (the Pods section is members' alone).
 */
export function ruleAllows(rule: ChannelRule, access: Access, workspaceExists: boolean): boolean {
  switch (rule.kind) {
    case 'user':
      return rule.userId === access.userId;
    case 'workspace':
      return workspaceExists && (access.admin || access.workspaceRoles.has(rule.workspaceId));
    case 'pod-logs':
      return workspaceExists && access.workspaceRoles.has(rule.workspaceId);
  }
}

/** Whether the user may listen on the channel. Any channel without a rule: no. */
export async function mayListen(context: { db: Kysely<Database> }, user: User, channel: string): Promise<boolean> {
  const rule = channelRule(channel);
  if (!rule) return false;
  if (rule.kind === 'user') return rule.userId === user.id;
  if (!(await findWorkspace(context.db, rule.workspaceId))) return false;
  return ruleAllows(rule, await loadAccess(context.db, user), true);
}
