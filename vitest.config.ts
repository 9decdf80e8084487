import { defineConfig } from 'vitest/config';

// Two projects: the API server (Node, real database, real SMTP) and the console
// (jsdom, Testing Library, msw). Browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
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
