import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers.js';
import { root, waitUntilAnswering } from './processes.js';

// `npm start` as an orchestrator runs it: SIGTERM while requests are in flight answers every
// one of them, closes the listening ports and exits 0 within 10 s. Runs scripts/start.mjs, so
// the compiled server (build/server/main.js) is what is tested, not the TypeScript sources.

describe('npm start and SIGTERM', () => {
  let workDir: string;
  let child: ChildProcess;
  let port: number;
  let log = '';

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'testbed-signals-'));
    const staticDir = join(workDir, 'dist');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
    port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      REVERB_PORT: String(await freePort()),
      STORAGE_DIR: join(workDir, 'storage'),
      STATIC_DIR: staticDir,
      SKIP_CONSOLE_BUILD: '1',
      CLUSTER: 'none',
      RATE_LIMITS: 'off',
    };
    // SQLite in the work directory: what is tested is the process, not the database.
    delete env.DATABASE_URL;
    delete env.NODE_ENV;
    child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitUntilAnswering(`http://127.0.0.1:${port}/api/settings`, child, () => log);
  }, 90_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers all 50 requests in flight, then exits 0 within 10 s', async () => {
    // Each request's body arrives in two parts, the second after the signal: the server must
    // keep reading and answer requests it had started, while it stops accepting new ones.
    // (A bad email is refused by validation, so 50 answers cost no password hashing.)
    const body = JSON.stringify({ email: 'not-an-email', password: 'not-the-password-1' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const requests = Array.from({ length: 50 }, () => {
      const request = http.request({ host: '127.0.0.1', port, path: '/login', method: 'POST', agent, headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'content-length': Buffer.byteLength(body),
      } });
      const answered = new Promise<number | string>((resolve) => {
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', (error) => resolve(`failed: ${error.message}`));
      });
      request.write(body.slice(0, 10));
      return { request, answered };
    });
    // Let every request's headers reach the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const signalled = Date.now();
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const { request } of requests) request.end(body.slice(10));

    const statuses = await Promise.all(requests.map(({ answered }) => answered));
    expect(statuses).toEqual(Array(50).fill(422));
    const code = await exited;
    expect(code, log).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(log).toContain('SIGTERM received');
    agent.destroy();
    // The port is free again: nothing was left listening.
    await expect(fetch(`http://127.0.0.1:${port}/api/settings`)).rejects.toThrow();
  }, 30_000);
});
