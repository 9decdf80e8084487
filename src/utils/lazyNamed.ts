import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/** Every lazy component's loader, for preloadLazyComponents. */
const loaders = new Set<() => Promise<unknown>>();

/**
 * React.lazy for a named export: `lazyNamed(() => import('./TokenList'), 'TokenList')`. The
 * module becomes a chunk of its own, loaded the first time the component renders (inside a
 * Suspense boundary: react-admin's Layout has one around its content).
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K] extends ComponentType<any> ? M[K] : never> {
  loaders.add(load);
  return lazy(async () => ({ default: (await load())[name] as any }));
}

/**
 * Loads every lazy component's module, and those their modules declare, until none is left:
 * the console tests render whole screens as the unsplit console did (tests/render.tsx), so a
 * screen's first render does not wait for its chunk's modules to be transformed.
 */
export async function preloadLazyComponents(): Promise<void> {
  const loaded = new Set<() => Promise<unknown>>();
  for (;;) {
    const pending = [...loaders].filter((load) => !loaded.has(load));
    if (pending.length === 0) return;
    pending.forEach((load) => loaded.add(load));
    await Promise.all(pending.map((load) => load()));
  }
}
