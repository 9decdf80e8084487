import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

// Browser tests drive Debian's Chromium (Playwright cannot download its own browser here)
// against the real server started by `npm start` on a fresh database, with a real SMTP
// server catching the mails (e2e/support/serve.mjs).
const port = Number(process.env.E2E_PORT ?? 8123);
export const e2eRuntimeDir = process.env.E2E_RUNTIME_DIR ?? join(process.cwd(), 'e2e', 'artifacts', 'runtime');

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/playwright',
  // A spec file's tests run in order, in one worker; two workers take two files at once. Each
  // spec arranges its own people, teams and workspaces, so files do not see each other's.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/playwright.json' }],
    // Last, so that what a failed test's page showed ends the output (e2e/support/failurePageReporter.ts).
    ['./e2e/support/failurePageReporter.ts'],
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 860 },
    // Dates follow the browser's locale within the chosen language (src/utils/dates.ts): a
    // British browser, so the specs' day-first dates are what the pages show.
    locale: 'en-GB',
    // Without the screenshots a trace would film: the page sweeps take a few hundred each. The
    // failed test's own screenshot and page snapshot still say what it showed. One setting for
    // every spec: a spec with a trace option of its own would need workers of its own, and the
    // runner keeps those for last, where the longest specs then ran alone.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node e2e/support/serve.mjs',
    url: `http://127.0.0.1:${port}/api/settings`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(port), E2E_RUNTIME_DIR: e2eRuntimeDir },
  },
});
