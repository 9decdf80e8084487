import { type ComponentType, createElement, lazy, useState } from 'react';

/** Every lazy component's loader, for preloadLazyComponents. */
const loaders = new Set<() => Promise<unknown>>();

/** The props of a component type. */
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * React.lazy for a named export: `lazyNamed(() => import('./TokenList'), 'TokenList')`. The
 * module becomes a chunk of its own, loaded the first time the component renders (inside a
 * Suspense boundary: react-admin's Layout has one around its content). Once the module is
 * loaded (shown before, or preloaded), an instance renders it at once instead of suspending:
 * React reveals suspended content in 300 ms steps, which nested lazy screens would add up.
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): ComponentType<PropsOf<M[K]>> & { preload: () => Promise<unknown> } {
  type Props = PropsOf<M[K]>;
  let loaded: ComponentType<Props> | undefined;
  const track = async () => {
    const component = (await load())[name] as unknown as ComponentType<Props>;
    loaded = component;
    return component;
  };
  loaders.add(track);
  const Lazy = lazy(async () => ({ default: await track() }));
  const LazyNamed = (props: Props) => {
    // Decided once per instance, so that an instance never switches (and remounts) mid-life.
    const [component] = useState(() => loaded);
    // Props are checked at the call sites (PropsOf); createElement cannot follow the generic.
    return createElement((component ?? Lazy) as ComponentType<object>, props as object);
  };
  LazyNamed.displayName = `Lazy(${name})`;
  /** Loads the module now (then the first render does not suspend). */
  LazyNamed.preload = track;
  return LazyNamed;
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
