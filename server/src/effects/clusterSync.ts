/**
 * How a decision asks for a reconciler pass. The app and the reconciler are handed the same
 * ClusterSync by whoever wires them (main.ts, the test kit): the app requests, the running
 * reconciler listens. A replica that does not lead has no listener, and the leader's own polling
 * picks the work up from the database.
 */
export interface ClusterSync {
  /** Ask for a pass soon; fire-and-forget, and harmless when repeated. */
  request(): void;
  /** Called on every request until the returned function is called. */
  listen(listener: () => void): () => void;
}

export function createClusterSync(): ClusterSync {
  const listeners = new Set<() => void>();
  return {
    request() {
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
