import type { Holder } from './protocol.js';

// Who is subscribed to what: channel → connections, and user → connections holding one of
// their subscriptions, so that a change of one user's rights finds their subscriptions
// without walking every connection.

export interface Subscriber {
  socketId: string;
  /** Channel → the holder of the subscription (private channels only: each has one). */
  channels: Map<string, Holder>;
}

/** A private subscription and who holds it. */
export interface HeldSubscription {
  socketId: string;
  channel: string;
  holder: Holder;
}

export class SubscriptionRegistry<C extends Subscriber> {
  private readonly byChannel = new Map<string, Set<C>>();
  private readonly byUser = new Map<number, Set<C>>();

  /** Records the subscription; true when it is the channel's first subscriber. */
  add(connection: C, channel: string, holder: Holder): boolean {
    connection.channels.set(channel, holder);
    const held = this.byUser.get(holder.userId) ?? new Set();
    held.add(connection);
    this.byUser.set(holder.userId, held);
    let subscribers = this.byChannel.get(channel);
    const first = !subscribers;
    if (!subscribers) {
      subscribers = new Set();
      this.byChannel.set(channel, subscribers);
    }
    subscribers.add(connection);
    return first;
  }

  /** Forgets the subscription; true when the channel lost its last subscriber. */
  remove(connection: C, channel: string): boolean {
    if (!connection.channels.has(channel)) return false;
    const holder = connection.channels.get(channel);
    connection.channels.delete(channel);
    if (holder && ![...connection.channels.values()].some((other) => other?.userId === holder.userId)) {
      const held = this.byUser.get(holder.userId);
      held?.delete(connection);
      if (held?.size === 0) this.byUser.delete(holder.userId);
    }
    const subscribers = this.byChannel.get(channel);
    if (!subscribers) return false;
    subscribers.delete(connection);
    if (subscribers.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  subscribers(channel: string): ReadonlySet<C> | undefined {
    return this.byChannel.get(channel);
  }

  count(channel: string): number {
    return this.byChannel.get(channel)?.size ?? 0;
  }

  /** The private subscriptions of these users, or of everybody among `all` without `userIds`. */
  held(all: Iterable<C>, userIds?: Iterable<number>): HeldSubscription[] {
    const result: HeldSubscription[] = [];
    const collect = (connection: C, userId?: number) => {
      for (const [channel, holder] of connection.channels) {
        if (holder && (userId === undefined || holder.userId === userId)) result.push({ socketId: connection.socketId, channel, holder });
      }
    };
    if (userIds === undefined) for (const connection of all) collect(connection);
    else for (const userId of new Set(userIds)) for (const connection of this.byUser.get(userId) ?? []) collect(connection, userId);
    return result;
  }
}
