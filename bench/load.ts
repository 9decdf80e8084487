// The load client: autocannon's command line in a process of its own, so that generating the
// load does not share an event loop (or a core's time slice) with what it measures any more
// than the machine forces it to. Keep-alive connections, GET, JSON answers.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  /** Answered requests per second over the run. */
  rps: number;
  /** Latency percentiles, milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Answers other than 2xx, connection errors and timeouts: any of these spoils the run. */
  non2xx: number;
  errors: number;
}

/** Runs autocannon against `url` for `duration` seconds over `connections` connections. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const headers = { Accept: 'application/json', ...options.headers };
  const args = [
    AUTOCANNON,
    '--json',
    '--connections', String(options.connections),
    '--duration', String(options.duration),
    '--timeout', '30',
    ...Object.entries(headers).flatMap(([name, value]) => ['--headers', `${name}=${value}`]),
    options.url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (data: Buffer) => (out += data.toString()));
    child.stderr.on('data', (data: Buffer) => (err += data.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) {
        reject(new Error(`autocannon exited with ${code}: ${err.trim()}`));
        return;
      }
      const result = JSON.parse(line) as {
        duration: number;
        requests: { total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      // No answer within the run (every request still in flight at its end): no latency to report.
      const answered = result.requests.total > 0;
      resolve({
        rps: result.requests.total / result.duration,
        p50: answered ? result.latency.p50 : Number.NaN,
        p99: answered ? result.latency.p99 : Number.NaN,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}
