import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { build, defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { planChunks, planGroups, VENDOR_GROUPS } from './vite.chunks.ts';

// The API server (server/, `npm start`) listens on 127.0.0.1:8000. In development the console
// runs on Vite's dev server and these paths go to the API; everything else is the console.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8000';

/**
 * Browser navigations (GET asking for HTML) stay on the console: /password/reset/{id}/{signature}
 * for example is a console page, while POST /password/reset/{id}/{signature} is an API call.
 */
const consolePageOnGet = (req: IncomingMessage): string | undefined =>
  req.method === 'GET' || req.method === 'HEAD' ? '/index.html' : undefined;

const api = (options: Partial<ProxyOptions> = {}): ProxyOptions => ({
  target: apiTarget,
  changeOrigin: false,
  ...options,
});

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|map)$/i;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Precompressed copies of the built files (smaller transfers): file.br and file.gz beside each text file
 * of 1 kB or more, when they are smaller. server/src/http/static.ts serves them to browsers that
 * accept them (Content-Encoding, Vary: Accept-Encoding), the plain file to the others.
 */
const precompress = (): Plugin => {
  let outDir = 'dist';
  let written = true;
  return {
    name: 'testbed:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      written = config.build.write;
    },
    async closeBundle() {
      if (!written) return;
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          if (br.length < content.length) await writeFile(`${file}.br`, br);
          if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
};

// ANALYZE=1 npm run build: the bundle report in stats/ (ignored by git).
const analyze = process.env.ANALYZE ? [visualizer({ filename: 'stats/bundle.html', gzipSize: true, brotliSize: true })] : [];

// react-router publishes its production build under dist/production without an export
// condition for it: the console bundle takes that one (no dev warnings, smaller). Both entry
// points: react-router-dom also imports react-router/dom, whose development build brought a
// second copy of the router's core (22.6 kB gzip on every page).
const reactRouterProduction = fileURLToPath(new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url));
const reactRouterDomProduction = fileURLToPath(new URL('node_modules/react-router/dist/production/dom-export.mjs', import.meta.url));

export default defineConfig(async ({ command }) => {
  const plan = command === 'build' ? await planChunks(build, fileURLToPath(import.meta.url)) : null;
  return {
  plugins: [react(), precompress(), ...analyze],
  resolve: {
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction },
            { find: /^react-router\/dom$/, replacement: reactRouterDomProduction },
            // react-admin imports lodash/get.js and the like (CommonJS: each brings lodash's
            // internals with interop wrappers); the same functions from lodash-es are ES modules.
            { find: /^lodash\/(\w+)(\.js)?$/, replacement: 'lodash-es/$1.js' },
            // node-polyglot's polyfills, for methods every supported browser has (src/shims).
            { find: /^object\.entries$/, replacement: fileURLToPath(new URL('src/shims/object-entries.cjs', import.meta.url)) },
            { find: /^hasown$/, replacement: fileURLToPath(new URL('src/shims/hasown.cjs', import.meta.url)) },
          ]
        : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...VENDOR_GROUPS,
            // The login form and everything it imports (MUI's core, emotion, the form state and
            // the router seam): one chunk, exactly what the logged-out bundle needs beside React and the
            // messages; the console needs nearly all of it too. Left to their importers, these
            // modules made two dozen small files since the console loads the login form lazily
            // (SessionGate): 223 kB gzip on /login instead of 204 (each file gzipped alone).
            // With them, the modules the entry file would hold (the session, the settings
            // request): both bundles load them, and the console's own chunk must not take them.
            {
              name: 'login',
              debugName: 'login',
              test: (id: string) =>
                /[\\/]src[\\/](pages[\\/]auth[\\/](LoginPage|AuthForm|LoggedOutLayout|InstitutionSignIn|FormError|validation)|pages[\\/]oidc[\\/]oidcErrors)\./.test(id) ||
                Boolean(plan?.entry.has(id)),
              priority: 5,
            },
            // Then the rest in as few files as what each screen loads allows (vite.chunks.ts).
            ...planGroups(plan, 5),
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': api(),
      '/broadcasting': api(),
      '/register': api({ bypass: consolePageOnGet }),
      '/login': api({ bypass: consolePageOnGet }),
      '/logout': api({ bypass: consolePageOnGet }),
      '/user': api({
        // GET /user is an API call (fetch asks for JSON); a browser navigation asks for HTML.
        bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      }),
      '/email/verification': api({ bypass: consolePageOnGet }),
      '/password/link': api({ bypass: consolePageOnGet }),
      '/password/reset': api({ bypass: consolePageOnGet }),
      '/aup/accept': api({ bypass: consolePageOnGet }),
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
  },
  };
});
