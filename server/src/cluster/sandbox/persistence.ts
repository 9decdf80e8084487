import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ObjectStore, StoreSnapshot } from './store.js';

// The sandbox's state kept across restarts: a whole-state JSON snapshot (docs/cluster.md,
// "State kept under storage").

/** Loads state.json into the store; false when there is none or it cannot be read (a fresh cluster then). */
export function loadState(store: ObjectStore, file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    store.restore(JSON.parse(readFileSync(file, 'utf8')) as StoreSnapshot);
    return true;
  } catch (error) {
    // A damaged file must not keep the console from starting: the reconciler rebuilds the
    // workspaces' objects in a fresh cluster.
    process.emitWarning(`sandbox cluster: ignoring ${file} (${(error as Error).message}); starting empty`);
    return false;
  }
}

/** Writes the snapshot atomically (a crash mid-write leaves the previous one). */
export function saveState(store: ObjectStore, file: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(store.snapshot()), { mode: 0o600 });
  renameSync(temporary, file);
}
