// The limits every realtime connection is held to, so that no client (nor one address with
// many clients) can take the server's memory, slots or CPU from the others.

export interface RealtimeLimits {
  /** Largest accepted frame in bytes (10 KiB, as Pusher's message limit). */
  maxMessageBytes: number;
  /** Channels one connection may be subscribed to at once. */
  maxSubscriptionsPerConnection: number;
  /** Messages a connection may send in one second before it is closed. */
  maxMessagesPerSecond: number;
  /** Simultaneous connections for the whole server. */
  maxConnections: number;
  /** Simultaneous connections from one client address (see RealtimeServerOptions.clientAddress). */
  maxConnectionsPerAddress: number;
  /** Longest channel name (Pusher allows 164 characters). */
  maxChannelNameLength: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxMessageBytes: 10 * 1024,
  maxSubscriptionsPerConnection: 100,
  maxMessagesPerSecond: 50,
  maxConnections: 10_000,
  // A browser tab is one connection; 100 leaves room for a lab behind one NAT address while
  // one address can no longer take every slot.
  maxConnectionsPerAddress: 100,
  maxChannelNameLength: 164,
};

/** Open connections per client address (entries go when their count falls to zero). */
export class AddressCounter {
  private readonly counts = new Map<string, number>();

  count(address: string): number {
    return this.counts.get(address) ?? 0;
  }

  add(address: string): void {
    this.counts.set(address, this.count(address) + 1);
  }

  remove(address: string): void {
    const left = this.count(address) - 1;
    if (left > 0) this.counts.set(address, left);
    else this.counts.delete(address);
  }

  /** Addresses with at least one connection (for tests and diagnostics). */
  get size(): number {
    return this.counts.size;
  }
}

/** Messages per one-second window: true once the connection went over the limit. */
export class MessageRate {
  private windowStart = Date.now();
  private inWindow = 0;

  constructor(private readonly maxPerSecond: number) {}

  exceeded(now: number): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    return ++this.inWindow > this.maxPerSecond;
  }
}
