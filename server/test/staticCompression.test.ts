import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

// The built console's precompressed copies (smaller transfers: vite.config.ts writes file.br and
// file.gz): served with Content-Encoding to browsers that accept them, the plain file to
// others, with Vary: Accept-Encoding, and the same Cache-Control as the plain file.

const INDEX = `<!doctype html><html><head><title>Testbed Console</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const app = ${JSON.stringify('console '.repeat(400))};\n`;
const SMALL = 'export const tiny = 1;\n';

let ctx: TestContext;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'static-compression-'));
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  const write = (path: string, content: string, compressed: boolean) => {
    writeFileSync(join(dist, path), content);
    if (compressed) {
      writeFileSync(join(dist, `${path}.br`), brotliCompressSync(content));
      writeFileSync(join(dist, `${path}.gz`), gzipSync(content));
    }
  };
  write('index.html', INDEX, true);
  write('assets/app-abc123.js', SCRIPT, true);
  write('assets/tiny-abc123.js', SMALL, false); // under 1 kB: the build leaves it plain
  ctx = await createTestContext({ config: { staticDir: dist } });
});

afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({
    method,
    url,
    headers: { accept: 'text/html,*/*', ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

describe('precompressed console files', () => {
  it('sends a hashed asset as brotli, gzip or identity by Accept-Encoding, immutable and Vary', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    for (const encoding of [undefined, 'identity']) {
      const plain = await get('/assets/app-abc123.js', encoding);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.body).toBe(SCRIPT);
    }
  });

  it('sends the plain file when there is no compressed copy', async () => {
    const response = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SMALL);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const head = await get('/assets/app-abc123.js', 'br', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers.vary).toMatch(/accept-encoding/i);
    expect(head.body).toBe('');
  });

  it.each(['/', '/registration', '/profile'])('sends the console page %s compressed, no-cache', async (url) => {
    const br = await get(url, 'br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);

    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(INDEX);

    const head = await get(url, 'br', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['cache-control']).toBe('no-cache');
  });
});
