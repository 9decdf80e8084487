// The processes the bench measures: the app as `npm start` runs it (scripts/start.mjs, which
// builds the server when its sources changed and runs it with node, with its normal pino
// logging, here into a file; CPU and RSS are read from that server process, not the wrapper),
// and a bare Node HTTP server answering a small JSON document, each in its own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Running {
  /** The process that serves (for the app, the server under scripts/start.mjs). */
  pid: number;
  url: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

export async function stopChild(child: ChildProcess, pids: number[] = []): Promise<void> {
  child.kill('SIGTERM');
  const done = await Promise.race([exited(child).then(() => true), sleep(15_000).then(() => false)]);
  if (!done) {
    for (const pid of [child.pid, ...pids]) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

/** The resident set size of a process in bytes (VmRSS of /proc/<pid>/status), or NaN if gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The CPU time (user + system) a process has used, in seconds, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

function childrenOf(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** The server process under scripts/start.mjs: its node child running server/…/main (not esbuild's service). */
function serverChild(pid: number): number | undefined {
  return childrenOf(pid).find((child) => {
    try {
      const argv = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
      return argv[0] === process.execPath && argv.some((arg) => /server[/\\].*main\.[jt]s$/.test(arg));
    } catch {
      return false;
    }
  });
}

/**
 * Starts the app the way `npm start` does, on free ports, with `env` on top of this process's
 * environment. Its log (pino JSON lines, one per request as in production) goes to `logFile`.
 * Answers once it listens.
 */
export async function startApp(env: Record<string, string>, logFile: string): Promise<Running> {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      REVERB_PORT: '0',
      // The console is not what is measured (STATIC_DIR points elsewhere); no need to build it.
      SKIP_CONSOLE_BUILD: '1',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped at start (exit ${child.exitCode}); its log:\n${tail(logFile)}`);
    const match = /Testbed Console listening on (http:\/\/[\d.]+:\d+)/.exec(readFileSync(logFile, 'utf8'));
    const pid = serverChild(child.pid!);
    if (match && pid) {
      return { pid, url: match[1]!, stop: () => stopChild(child, [pid]) };
    }
    if (Date.now() - started > 120_000) {
      await stopChild(child, childrenOf(child.pid!));
      throw new Error(`The server did not start within 120 s; its log:\n${tail(logFile)}`);
    }
    await sleep(100);
  }
}

export const tail = (file: string, lines = 20) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');

const BARE = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** A bare Node HTTP hello-world in a process of its own: the reference throughput. */
export async function startBare(): Promise<Running> {
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The bare server stopped (exit ${code})`)));
  });
  return { pid: child.pid!, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
