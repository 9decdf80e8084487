import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from '../html.js';

// Files that are requested as files; a missing one is a 404, not the console page.
const ASSET_EXTENSION = /\.(js|mjs|css|map|json|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|txt|wasm|webmanifest)$/i;

// Files the build may precompress (vite.config.ts), with the compressed copies' own names.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|map)(\.br|\.gz)?$/i;

/** A browser asking for a console screen (/registration, /email/verify/1/abc, /profile…). */
function isConsolePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0];
  if (path === '/api' || path.startsWith('/api/')) return false;
  return !ASSET_EXTENSION.test(path);
}

function notBuiltPage(staticDir: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Testbed Console</title></head><body>',
    '<h1>The console is not built</h1>',
    `<p>No index.html in ${escapeHtml(staticDir)}. Run <code>npm run build</code> (or <code>npm start</code>, which builds it), then reload.</p>`,
    '<p>The API is up: see <a href="/api/docs">/api/docs</a>.</p>',
    '</body></html>',
  ].join('\n');
}

/**
 * Serves the built console from STATIC_DIR. The console routes in the browser, so any GET
 * that no route and no file matched, outside /api/, answers index.html; under /api/, and
 * for other methods, an unmatched request is a JSON 404.
 */
export async function installConsole(app: FastifyInstance, staticDir: string): Promise<void> {
  const staticDirExists = existsSync(staticDir);
  if (staticDirExists) {
    await app.register(fastifyStatic, {
      root: staticDir,
      cacheControl: false,
      // The build writes file.br and file.gz beside each text file (vite.config.ts): a browser
      // accepting br or gzip gets one with its Content-Encoding, others the plain file. The
      // console page (index.html, sent by the not-found handler below) too.
      preCompressed: true,
      setHeaders(response, path) {
        // Vite puts content-hashed files under assets/: they never change. Anything else may.
        const immutable = /[\\/]assets[\\/]/.test(path);
        response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same URL answers compressed or not by Accept-Encoding: caches must keep both.
        if (COMPRESSIBLE.test(path)) response.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isConsolePage(request)) return reply.code(404).send({ message: 'Not found.' });
    // Checked per request, so a console built while the server runs is picked up.
    if (staticDirExists && existsSync(join(staticDir, 'index.html'))) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(503).type('text/html; charset=utf-8').send(notBuiltPage(staticDir));
  });
}
