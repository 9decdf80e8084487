import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/**
 * React.lazy for a named export: `lazyNamed(() => import('./TokenList'), 'TokenList')`. The
 * module becomes a chunk of its own, loaded the first time the component renders (inside a
 * Suspense boundary: react-admin's Layout has one around its content).
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K] extends ComponentType<any> ? M[K] : never> {
  return lazy(async () => ({ default: (await load())[name] as any }));
}
