// The memory goals: the server's idle RSS (with the sandbox cluster beside it and
// without), and no growth over BENCH_SOAK_SECONDS (600) of mixed load.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from './load.js';
import { rssBytes, type Running, startApp } from './server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server started as `npm start` starts it on `databaseUrl`, left alone for `settleMs`, then
 * its RSS: the median of ten samples a second apart. `cluster`: `sandbox` runs the in-process
 * sandbox Kubernetes API, reconciler and node watch as a developer's `npm start` does.
 */
export async function idleRss(options: { databaseUrl: string; workDir: string; cluster: 'sandbox' | 'none'; settleMs?: number }): Promise<number> {
  mkdirSync(options.workDir, { recursive: true });
  const app = await startApp(
    {
      DATABASE_URL: options.databaseUrl,
      STORAGE_DIR: options.workDir,
      STATIC_DIR: join(options.workDir, 'no-console'),
      RATE_LIMITS: 'off',
      CLUSTER: options.cluster,
    },
    join(options.workDir, `idle-${options.cluster}.log`),
  );
  try {
    // One request, as a probe would make, so that what the first request loads lazily counts.
    await fetch(`${app.url}/api/settings`);
    await sleep(options.settleMs ?? 10_000);
    const samples: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      samples.push(rssBytes(app.pid));
      await sleep(1000);
    }
    samples.sort((a, b) => a - b);
    return samples[5]!;
  } finally {
    await app.stop();
  }
}

export interface SoakResult {
  seconds: number;
  requests: number;
  /** RSS after the first minute (or a tenth of the run, if shorter) and at the end. */
  rssEarly: number;
  rssEnd: number;
  rssPeak: number;
}

/** Mixed load for `seconds`: every scenario in turn, 10 s each at `connections`, RSS sampled each second. */
export async function soak(
  app: Running,
  targets: { url: string; headers: Record<string, string> }[],
  seconds: number,
  connections: number,
): Promise<SoakResult> {
  const started = Date.now();
  const earlyAt = Math.min(60_000, (seconds * 1000) / 10);
  let rssEarly = Number.NaN;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    const rss = rssBytes(app.pid);
    rssPeak = Math.max(rssPeak, rss);
    if (Number.isNaN(rssEarly) && Date.now() - started >= earlyAt) rssEarly = rss;
  }, 1000);
  let requests = 0;
  try {
    for (let turn = 0; Date.now() - started < seconds * 1000; turn += 1) {
      const target = targets[turn % targets.length]!;
      const left = Math.ceil((seconds * 1000 - (Date.now() - started)) / 1000);
      const result = await runLoad({ url: target.url, headers: target.headers, connections, duration: Math.max(1, Math.min(10, left)) });
      requests += result.requests;
      // A server that stopped (its RSS no longer readable) or failed answers would make the
      // growth figure meaningless: say so instead of printing NaN or a number about errors.
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`mixed load, ${target.url}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
      if (Number.isNaN(rssBytes(app.pid))) throw new Error(`the server (pid ${app.pid}) stopped during the mixed load, after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    clearInterval(sampler);
  }
  return { seconds: (Date.now() - started) / 1000, requests, rssEarly, rssEnd: rssBytes(app.pid), rssPeak };
}
