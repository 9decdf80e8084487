// The workspaces whose deletion by a platform admin this console was told of (WorkspaceDeleted),
// for a little while: the notices that a workspace's subscriptions ended (the Pods section's
// 'You no longer have access…') give way to the one that says why, whichever event comes first
// and however long leaving the page takes.

const REMEMBER_MS = 60_000;
const deleted = new Map<number, number>();

export const markWorkspaceDeleted = (id: number, now = Date.now()) => {
  for (const [key, at] of deleted) if (now - at > REMEMBER_MS) deleted.delete(key);
  deleted.set(id, now);
};

export const wasWorkspaceDeleted = (id: number, now = Date.now()) => {
  const at = deleted.get(id);
  return at !== undefined && now - at <= REMEMBER_MS;
};

/** Forgets every deletion told of (the console tests, which share this module between files). */
export const forgetDeletedWorkspaces = () => deleted.clear();
