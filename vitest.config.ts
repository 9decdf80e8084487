import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: the API server (Node, real database, real SMTP) and the console
// (jsdom, Testing Library, msw). Browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
    // Every core: vitest leaves one free by default, which on CI's two cores ran the files one at
    // a time (each test file has its own database, SQLite file or PostgreSQL schema, and ports).
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['tests/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
