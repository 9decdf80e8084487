#!/usr/bin/env node
// `npm run build:server`: the server compiled to JavaScript (build/server/main.js and cli.js),
// so production runs plain `node`, not TypeScript through tsx. esbuild bundles our own modules
// and leaves every npm package as an import of node_modules (`packages: 'external'`), so the
// image needs only the production dependencies. Source maps point stack traces at server/src.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const serverBuildDir = join(root, 'build', 'server');

/** Builds into build/server, or `outdir` (inside the project, so that node_modules resolve: tests use their own). */
export async function buildServer(outdir = serverBuildDir) {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { main: join(root, 'server/src/main.ts'), cli: join(root, 'server/src/cli.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Modules imported with import() (the Kubernetes gateway and the sandbox cluster, with
    // @kubernetes/client-node) go into chunks of their own, loaded only when a cluster is used.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Files the server reads next to its own module (new URL('./…', import.meta.url)).
  copyFileSync(join(root, 'server/src/nodes/install/install.sh'), join(outdir, 'install.sh'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildServer();
  console.log(`Server built into ${serverBuildDir}`);
}
