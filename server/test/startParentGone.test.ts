import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from './helpers.js';
import { root, waitUntilAnswering } from './processes.js';

// `npm start` stopped the way a process manager or `kill <pid>` stops it: a signal to the
// npm process alone (not to its process group). npm hands SIGTERM to the `sh -c` that runs the
// script, which dies of it without passing it on; scripts/start.mjs must still notice and stop
// the server, and the server must stop when start.mjs itself goes away, even by SIGKILL. Each
// run is a process group of its own (detached), only so that the test can kill what is left.

interface Run {
  child: ChildProcess;
  ports: number[];
  log(): string;
  /** Whether any process of the run's group is still alive. */
  groupAlive(): boolean;
}

let workDir: string;
let staticDir: string;
const runs: Run[] = [];

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-parent-gone-'));
  staticDir = join(workDir, 'dist');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
});

afterEach(() => {
  // Whatever a failed test left behind: the whole group, by its id.
  for (const run of runs.splice(0)) {
    try {
      process.kill(-run.child.pid!, 'SIGKILL');
    } catch {
      // nothing left
    }
  }
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function start(command: string, args: string[], name: string): Promise<Run> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports[0]),
    REVERB_PORT: String(ports[1]),
    METRICS_PORT: String(ports[2]),
    STORAGE_DIR: join(workDir, name),
    STATIC_DIR: staticDir,
    SKIP_CONSOLE_BUILD: '1',
    CLUSTER: 'none',
    RATE_LIMITS: 'off',
  };
  // SQLite in the work directory: what is tested is the processes, not the database.
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const run: Run = {
    child,
    ports,
    log: () => output,
    groupAlive() {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    },
  };
  runs.push(run);
  await waitUntilAnswering(`http://127.0.0.1:${ports[0]}/livez`, child, () => output, 90_000);
  return run;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The pid of the server process, from its JSON log line. */
function serverPid(run: Run): number {
  const line = run.log().split('\n').find((text) => text.includes('Testbed Console listening on'));
  const pid = line ? (JSON.parse(line) as { pid?: number }).pid : undefined;
  if (!pid) throw new Error(`no server pid in the log:\n${run.log()}`);
  return pid;
}

/** Every port closed and every process of the run gone, within 15 s (the server drains in 10 at most). */
async function allGone(run: Run): Promise<void> {
  await eventually(async () => {
    for (const port of run.ports) expect(await listening(port), `port ${port}\n${run.log()}`).toBe(false);
    expect(run.groupAlive(), run.log()).toBe(false);
  }, { timeoutMs: 15_000, intervalMs: 200 });
}

describe('npm start when the process that started it goes away', () => {
  it('SIGTERM to npm alone: the server stops gracefully and its ports are free within seconds', async () => {
    const run = await start('npm', ['start'], 'npm');
    expect(await listening(run.ports[2]!), 'the metrics port').toBe(true);
    process.kill(run.child.pid!, 'SIGTERM');
    await allGone(run);
    // It drained as on SIGTERM (the graceful path), not killed.
    expect(run.log()).toMatch(/SIGTERM received|The process that started the server is gone/);
  }, 120_000);

  it('start.mjs killed with SIGKILL: the server notices (its IPC channel closes) and stops', async () => {
    const run = await start(process.execPath, [join(root, 'scripts', 'start.mjs')], 'sigkill');
    const pid = serverPid(run);
    process.kill(run.child.pid!, 'SIGKILL');
    await allGone(run);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(run.log()).toContain('The process that started the server is gone');
  }, 120_000);

  it('SIGHUP to start.mjs (its terminal closed): passed on, the server drains and start.mjs exits 0', async () => {
    const run = await start(process.execPath, [join(root, 'scripts', 'start.mjs')], 'sighup');
    const exited = new Promise<number | null>((resolve) => run.child.once('exit', (code) => resolve(code)));
    process.kill(run.child.pid!, 'SIGHUP');
    expect(await exited).toBe(0);
    await allGone(run);
    expect(run.log()).toContain('SIGHUP received');
  }, 120_000);
});
