import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { i18nProvider } from '../src/i18n';
import { currentLocale, DEFAULT_LOCALE } from '../src/i18n/locale';
import { forgetDeletedWorkspaces } from '../src/realtime/deletedWorkspaces';
import { resetDb } from './mocks/db';
import { resetNodesDb } from './mocks/nodes';
import { resetUsageDb } from './mocks/usage';
import { server } from './mocks/server';

// The whole console renders in each test: allow for a loaded machine (default 1000 ms). Under
// CI's two cores shared with another job, a lazily loaded list page has taken over 3 s to show.
configure({ asyncUtilTimeout: 8000 });

// Dates follow the browser's locale within the console's language; jsdom says en-US. The
// tests' expectations are written day first (02/11/2026), as an en-GB browser shows them;
// tests of the en-US order set navigator.language themselves.
Object.defineProperty(window.navigator, 'language', { value: 'en-GB', configurable: true, writable: true });

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom does not implement these; react-admin and MUI call them.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  if (!window.matchMedia) {
    window.matchMedia = ((query: string) => ({
      matches: /min-width:\s*(\d+)px/.test(query) ? Number(/min-width:\s*(\d+)px/.exec(query)![1]) <= 1280 : false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  }
});

// React (in development, as here) reports HTML that browsers would rebuild differently: a <div>
// inside a <span> or a <p>, a link inside a link. Any such report fails the test that rendered it.
const INVALID_NESTING = /cannot be a descendant of|cannot contain a nested|validateDOMNesting/;
let nestingErrors: string[] = [];
const consoleError = console.error;

beforeEach(async () => {
  nestingErrors = [];
  // The test files of a worker share the console's modules (vitest.config.ts, isolate: false):
  // what one left in module state (the language, the deletions told of) is put back here.
  if (currentLocale() !== DEFAULT_LOCALE) await i18nProvider.changeLocale(DEFAULT_LOCALE);
  forgetDeletedWorkspaces();
  console.error = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (INVALID_NESTING.test(text)) nestingErrors.push(text.slice(0, 300));
    consoleError(...args);
  };
  window.localStorage.clear();
  resetDb();
  resetNodesDb();
  resetUsageDb();
});

afterEach(() => {
  console.error = consoleError;
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
  if (nestingErrors.length > 0) throw new Error(`Invalid HTML nesting rendered:\n${nestingErrors.join('\n')}`);
});

afterAll(() => server.close());
