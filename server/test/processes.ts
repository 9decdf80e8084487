import { type ChildProcess, execFile, execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { freePort, pause } from './helpers.js';

// Helpers for tests that run real processes: the compiled server, the standalone sandbox, a
// throwaway PostgreSQL cluster of the test's own (so it may restart it). Every wait has a
// deadline and polls; nothing sleeps for a fixed time beyond short pauses.

export const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** Waits until `url` answers 2xx, failing early (with the output) when the process exits. */
export async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the process exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(5000) })).ok) return;
    } catch {
      // not listening yet
    }
    await pause(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${output()}`);
}

export interface Spawned {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

/** A child process whose output is kept (for failure messages). */
export function spawnLogged(command: string, args: string[], options: SpawnOptions = {}): Spawned {
  const child = spawn(command, args, { cwd: root, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': by then all of its output has been read (a crash's last words included).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => output, exited, alive: () => child.exitCode === null && child.signalCode === null };
}

/** Waits until the process has printed `text`. */
export async function waitForOutput(spawned: Spawned, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!spawned.output().includes(text)) {
    if (!spawned.alive()) throw new Error(`the process exited before printing ${JSON.stringify(text)}:\n${spawned.output()}`);
    if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} within ${timeoutMs / 1000} s:\n${spawned.output()}`);
    await pause(100);
  }
}

// ---------------------------------------------------------------------------------------
// The compiled server

/**
 * The server compiled as `npm start` compiles it (scripts/build-server.mjs), into a directory
 * of its own under build/ (inside the project, so that node_modules resolve), so that a test
 * never runs a build/server/main.js another test or person is rewriting. Answers main.js.
 */
export async function buildServerCopy(): Promise<{ main: string; remove(): void }> {
  const outdir = join(root, 'build', `test-${process.pid}-${Date.now().toString(36)}`);
  const script = pathToFileURL(join(root, 'scripts', 'build-server.mjs')).href;
  await run(process.execPath, ['--input-type=module', '-e', `const { buildServer } = await import(${JSON.stringify(script)}); await buildServer(${JSON.stringify(outdir)});`], {
    cwd: root,
    timeout: 120_000,
  });
  return { main: join(outdir, 'main.js'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------
// A throwaway PostgreSQL cluster (as .ci/run starts one)

/** The newest PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<version>/bin), or null. */
export function postgresBinaries(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((version) => existsSync(join(base, version, 'bin', 'initdb')))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  return versions.length > 0 ? join(base, versions.at(-1)!, 'bin') : null;
}

export interface PostgresCluster {
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl restart -m fast`: every session ends, the server comes back on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  log(): string;
}

/**
 * initdb into a temporary directory and start on a free loopback port with fsync off. As root,
 * PostgreSQL runs as the `postgres` user (it refuses to run as root), through runuser.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'testbed-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dataDir, uid, gid);
  }
  const pg = (tool: string, args: string[], timeout = 60_000) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { timeout }) : run(join(bin, tool), args, { timeout });
  const port = await freePort();
  const logFile = join(dataDir, 'server.log');
  const serverOptions = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  await pg('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions, 'start']);
  const log = () => {
    try {
      return execFileSync('tail', ['-n', '40', logFile]).toString();
    } catch {
      return '';
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    log,
    async restart() {
      await pg('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-m', 'fast', '-o', serverOptions, 'restart']);
    },
    async stop() {
      await pg('pg_ctl', ['-D', dataDir, '-w', '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
