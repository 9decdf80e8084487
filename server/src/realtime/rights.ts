import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { loadAccessMany } from '../access/access.js';
import { channelRule, ruleAllows } from './channels.js';
import type { SubscriptionEnd } from './protocol.js';
import type { HeldSubscription, RealtimeServer } from './pusherServer.js';

// Realtime rights end with the rights behind them. Each private subscription names its holder
// (user and token, from POST /broadcasting/auth); when a right of some users may have ended
// (Broadcaster.rightsChanged, called by the domains after their change is committed), their
// subscriptions are checked again: the token still valid, the user enabled, the channel still
// theirs. Those no longer allowed are ended (the subscriber gets SubscriptionEnded, and a
// cluster feed nobody may read any more stops with its last subscriber). A slow periodic pass
// over every subscription catches what no call announces: expired tokens, changes made from
// outside the API.

/** Users checked per batch of queries (four queries per batch, whatever the number of channels). */
const BATCH_USERS = 500;

export const DEFAULT_RECHECK_INTERVAL_MS = 60_000;

const ENDS = {
  account: { reason: 'account-disabled', message: 'This account is disabled.' },
  session: { reason: 'session-ended', message: 'Your session has ended. Sign in again.' },
  workspace: { reason: 'access-ended', message: 'You no longer have access to this workspace.' },
  channel: { reason: 'access-ended', message: 'You no longer have access to this channel.' },
} satisfies Record<string, SubscriptionEnd>;

export interface RightsChecks {
  /** Resolves when no check is running or queued (for tests and shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

type RightsServer = Pick<RealtimeServer, 'subscriptions' | 'endSubscription' | 'onRightsChanged'>;

/** Why the subscription must end, or null while it is still allowed. */
type Verdict = SubscriptionEnd | null;

async function verdicts(db: Kysely<Database>, held: HeldSubscription[], now: Date): Promise<Verdict[]> {
  const userIds = [...new Set(held.map((subscription) => subscription.holder.userId))];
  const tokenIds = [...new Set(held.map((subscription) => subscription.holder.tokenId))];
  const rules = held.map((subscription) => channelRule(subscription.channel));
  const workspaceIds = [...new Set(rules.flatMap((rule) => (rule && rule.kind !== 'user' ? [rule.workspaceId] : [])))];
  const [users, tokens, workspaces] = await Promise.all([
    db.selectFrom('users').select(['id', 'admin', 'enabled']).where('id', 'in', userIds).execute(),
    db.selectFrom('access_tokens').select(['id', 'user_id', 'expires_at']).where('id', 'in', tokenIds).execute(),
    workspaceIds.length > 0 ? db.selectFrom('workspaces').select('id').where('id', 'in', workspaceIds).execute() : [],
  ]);
  const userById = new Map(users.map((user) => [user.id, user]));
  const tokenById = new Map(tokens.map((token) => [token.id, token]));
  const existing = new Set(workspaces.map((workspace) => workspace.id));
  // Memberships only for those who hold a workspace or pod-log channel.
  const needAccess = new Set(held.flatMap((subscription, index) => (rules[index]?.kind === 'user' ? [] : [subscription.holder.userId])));
  const access = await loadAccessMany(db, users.filter((user) => user.enabled === 1 && needAccess.has(user.id)));
  const nowText = timestamp(now);

  return held.map(({ holder }, index): Verdict => {
    const user = userById.get(holder.userId);
    if (!user || user.enabled !== 1) return ENDS.account;
    const token = tokenById.get(holder.tokenId);
    if (!token || token.user_id !== holder.userId || (token.expires_at !== null && token.expires_at <= nowText)) return ENDS.session;
    const rule = rules[index];
    if (!rule) return ENDS.channel;
    if (rule.kind === 'user') return rule.userId === holder.userId ? null : ENDS.channel;
    const rights = access.get(holder.userId);
    return rights && ruleAllows(rule, rights, existing.has(rule.workspaceId)) ? null : ENDS.workspace;
  });
}

/**
 * Re-checks subscriptions when the realtime server hears that rights changed, and every
 * `intervalMs` for all of them. Never throws: a failed check is logged and tried at the next
 * change or pass.
 */
export function attachRightsChecks(input: {
  realtime: RightsServer;
  db: Kysely<Database>;
  logger?: FastifyBaseLogger;
  intervalMs?: number;
}): RightsChecks {
  const { realtime, db, logger } = input;
  const queued = new Set<number>();
  let everybody = false;
  let running: Promise<void> | null = null;
  let closed = false;

  const check = async (held: HeldSubscription[]) => {
    // Grouped by user so that one user's subscriptions are judged by the same reads.
    held.sort((a, b) => a.holder.userId - b.holder.userId);
    let start = 0;
    while (start < held.length) {
      let end = start;
      const users = new Set<number>();
      while (end < held.length && (users.size < BATCH_USERS || users.has(held[end].holder.userId))) users.add(held[end++].holder.userId);
      const batch = held.slice(start, end);
      const results = await verdicts(db, batch, new Date());
      batch.forEach((subscription, index) => {
        const verdict = results[index];
        if (verdict && realtime.endSubscription(subscription.socketId, subscription.channel, verdict)) {
          logger?.info({ channel: subscription.channel, userId: subscription.holder.userId, reason: verdict.reason }, 'realtime subscription ended');
        }
      });
      start = end;
    }
  };

  const drain = async () => {
    while (!closed && (everybody || queued.size > 0)) {
      const all = everybody;
      const userIds = [...queued];
      everybody = false;
      queued.clear();
      try {
        await check(all ? realtime.subscriptions() : realtime.subscriptions(userIds));
      } catch (error) {
        logger?.error({ err: error }, 'realtime rights check failed');
      }
    }
  };

  const schedule = () => {
    if (running || closed) return;
    running = drain().finally(() => {
      running = null;
      // Anything queued while the last check was finishing.
      if (everybody || queued.size > 0) schedule();
    });
  };

  realtime.onRightsChanged((userIds) => {
    for (const userId of userIds) queued.add(userId);
    schedule();
  });

  const timer = setInterval(() => {
    everybody = true;
    schedule();
  }, input.intervalMs ?? DEFAULT_RECHECK_INTERVAL_MS);
  timer.unref();

  return {
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
