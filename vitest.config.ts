import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// The API server (Node, real database, real SMTP) and the console (jsdom, Testing Library,
// msw), the latter in two projects: the console files that replace a module with vi.mock run
// apart. Browser tests live in e2e/ and run under Playwright.

// Found by reading the files, so that a file that starts using vi.mock moves here by itself.
const CONSOLE_FILES_WITH_MODULE_MOCKS = readdirSync('tests', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && readFileSync(join('tests', file), 'utf8').includes('vi.mock('))
  .map((file) => join('tests', file));
const consoleTests = {
  environment: 'jsdom',
  setupFiles: ['tests/setup.ts'],
  testTimeout: 20_000,
} as const;

export default defineConfig({
  test: {
    // Every core: vitest leaves one free by default, which on CI's two cores ran the files one at
    // a time (each test file has its own database, SQLite file or PostgreSQL schema, and ports).
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        test: {
          name: 'server',
          // A worker's test files share its modules: importing the server for each file took
          // over half the suite's time. Each file still builds its own app, database and ports
          // (test/kit); the server keeps no state in modules beyond caches.
          isolate: false,
          environment: 'node',
          include: ['server/test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          ...consoleTests,
          name: 'console',
          // As for the server: react-admin and MUI are imported once per worker, not per file.
          // tests/setup.ts puts back the module state a file may leave (the language, …).
          isolate: false,
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...CONSOLE_FILES_WITH_MODULE_MOCKS],
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          ...consoleTests,
          // vi.mock replaces a module only where it is imported after the mock: these files get
          // fresh modules of their own.
          name: 'console-module-mocks',
          include: CONSOLE_FILES_WITH_MODULE_MOCKS,
        },
      },
    ],
  },
});
