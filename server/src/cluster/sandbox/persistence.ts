import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
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

/** Objects turned into JSON per turn of the event loop by writeStateInSlices. */
export const OBJECTS_PER_SLICE = 200;

/**
 * Writes the same file as saveState, atomically too, but a slice of objects at a time with the
 * event loop free between slices and the disk written asynchronously: at thousands of
 * workspaces the state is tens of MB, and turning it into JSON at once held every request of
 * the process for hundreds of ms. An object changed during the write is written as it is when
 * its slice comes (the change's own event asks for the next save anyway); one deleted meanwhile
 * is left out; the revision is read at the end, so it covers every object written.
 */
export async function writeStateInSlices(store: ObjectStore, file: string): Promise<void> {
  // Arrays of the objects as they are now (references, not copies: cheap at any size).
  const snapshot = store.snapshot();
  const temporary = `${file}.${process.pid}.slices.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.write('{"version":1,"objects":{');
    let resourceIndex = 0;
    for (const [resource, objects] of Object.entries(snapshot.objects)) {
      await handle.write(`${resourceIndex++ === 0 ? '' : ','}${JSON.stringify(resource)}:[`);
      let written = 0;
      for (let start = 0; start < objects.length; start += OBJECTS_PER_SLICE) {
        const parts: string[] = [];
        for (const object of objects.slice(start, start + OBJECTS_PER_SLICE)) {
          if (!store.get(resource, object.metadata.namespace, object.metadata.name)) continue;
          parts.push(JSON.stringify(object));
        }
        if (parts.length > 0) await handle.write(`${written === 0 ? '' : ','}${parts.join(',')}`);
        written += parts.length;
        await nextTurn();
      }
      await handle.write(']');
    }
    const tail = { revision: Number(store.resourceVersion), tokens: snapshot.tokens, nodeCreators: snapshot.nodeCreators };
    await handle.write(`},${JSON.stringify(tail).slice(1)}`);
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** Writes the snapshot atomically (a crash mid-write leaves the previous one). */
export function saveState(store: ObjectStore, file: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(store.snapshot()), { mode: 0o600 });
  renameSync(temporary, file);
}
