// The timed single admin actions at scale: the CSV export of every user (with the server's RSS
// sampled every 50 ms from /proc) and a bulk disable of 1,000 users (then enabling them again,
// so that every round starts from the same data).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { cpuSeconds, rssBytes, type Running } from './server.js';

export interface ExportTiming {
  ms: number;
  /** The server's CPU time during the export (its own process; not the database server's). */
  cpuMs: number;
  bytes: number;
  rssBefore: number;
  /** Peak RSS during the export minus the RSS just before it. */
  rssGrowth: number;
}

/** GET /api/admin/users.csv, read to its end; checks one line per user plus the header. */
export async function exportRound(app: Running, headers: Record<string, string>, users: number): Promise<ExportTiming> {
  const rssBefore = rssBytes(app.pid);
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(app.pid));
  }, 50);
  const cpuBefore = cpuSeconds(app.pid);
  const started = performance.now();
  try {
    const { bytes, lines } = await new Promise<{ bytes: number; lines: number }>((resolve, reject) => {
      http
        .get(`${app.url}/api/admin/users.csv`, { headers }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`GET /api/admin/users.csv answered ${res.statusCode}`));
          let bytes = 0;
          let lines = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines += 1;
          });
          res.on('end', () => resolve({ bytes, lines }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    const ms = performance.now() - started;
    const cpuMs = (cpuSeconds(app.pid) - cpuBefore) * 1000;
    peak = Math.max(peak, rssBytes(app.pid));
    if (lines !== users + 1) throw new Error(`The users CSV had ${lines} lines for ${users} users`);
    return { ms, cpuMs, bytes, rssBefore, rssGrowth: peak - rssBefore };
  } finally {
    clearInterval(sampler);
  }
}

export interface BulkTiming {
  disableMs: number;
  enableMs: number;
}

async function bulk(app: Running, headers: Record<string, string>, ids: number[], action: 'disable' | 'enable'): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${app.url}/api/admin/users/bulk`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ids, action }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`POST /api/admin/users/bulk (${action}) answered ${response.status}: ${text.slice(0, 500)}`);
  const done = (JSON.parse(text) as { totals: { done: number } }).totals.done;
  if (done !== ids.length) throw new Error(`POST /api/admin/users/bulk (${action}) changed ${done} of ${ids.length} users`);
  return ms;
}

/** Disables `ids` in one request (timed), then enables them again (timed too). */
export async function bulkRound(app: Running, headers: Record<string, string>, ids: number[]): Promise<BulkTiming> {
  const disableMs = await bulk(app, headers, ids, 'disable');
  const enableMs = await bulk(app, headers, ids, 'enable');
  return { disableMs, enableMs };
}
