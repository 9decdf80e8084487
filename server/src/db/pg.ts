import { createRequire } from 'node:module';

// pg is loaded on first use: a server on SQLite (the default) never needs it, and loading it
// costs some 10 MB of memory (against the idle memory goal of docs/benchmarks.md). Its CommonJS build is loaded
// synchronously, so createDatabase stays synchronous.
const require = createRequire(import.meta.url);
let loaded: typeof import('pg') | undefined;

export function loadPg(): typeof import('pg') {
  loaded ??= require('pg') as typeof import('pg');
  return loaded;
}
