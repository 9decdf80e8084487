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

/**
 * How long to wait after changes before the next save, given how long the last one took (ms).
 * A save writes the whole state and holds the event loop meanwhile (the console's own requests
 * included, when the sandbox runs in the server's process): 250 ms gathers a burst of writes into
 * one save while the state is small; a state of thousands of workspaces (tens of MB, a
 * reconciler provisioning them all) waits twenty times its save's cost, so saving never takes
 * more than about 5 % of the time, and at most SAVE_DELAY_CAP_MS, so little is lost to a crash.
 */
export const SAVE_DELAY_MS = 250;
export const SAVE_DELAY_CAP_MS = 30_000;
export const nextSaveDelay = (lastSaveMs: number) => Math.min(SAVE_DELAY_CAP_MS, Math.max(SAVE_DELAY_MS, Math.round(lastSaveMs * 20)));

/** Writes the snapshot atomically (a crash mid-write leaves the previous one). */
export function saveState(store: ObjectStore, file: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(store.snapshot()), { mode: 0o600 });
  renameSync(temporary, file);
}
