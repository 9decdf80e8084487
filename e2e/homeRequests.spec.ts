import { expect, test, type Page, type Request } from '@playwright/test';
import { createUser, loggedInPage } from './support/users';

// Opening the home with a stored session: its cards' lists must not wait for GET /user. They go
// out beside it (src/prefetch.ts), and the cards read those answers instead of asking again.
// /user is held back here so that "beside it" cannot be confused with "just after a fast answer".

const USER_DELAY_MS = 1500;
const isUser = (request: Request) => new URL(request.url()).pathname === '/user';
const isList = (path: string) => (request: Request) => new URL(request.url()).pathname === path;

test('the home asks for its lists together with the user, and once', async ({ browser }) => {
  const page = await loggedInPage(browser, createUser('Grace', 'Prefetch'));

  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'fetch') requests.push(request);
  });
  let userAnswered = 0;
  await page.route('**/user', async (route) => {
    if (route.request().resourceType() !== 'fetch') return route.continue();
    await new Promise((resolve) => setTimeout(resolve, USER_DELAY_MS));
    userAnswered = Date.now();
    await route.continue();
  });

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your nodes' })).toBeVisible();
  await expect(page.getByText('You have not contributed any node yet.')).toBeVisible();
  expect(userAnswered).toBeGreaterThan(0);

  const userRequest = requests.find(isUser);
  const nodes = requests.filter(isList('/api/nodes'));
  const pending = requests.filter(isList('/api/requests'));
  expect(userRequest).toBeDefined();
  // Each list once: the card's read was answered by the request started beside /user.
  expect(nodes).toHaveLength(1);
  expect(pending).toHaveLength(1);
  expect(new URL(pending[0].url()).searchParams.get('status')).toBe('Pending');
  // Started while /user was still held back (timing().startTime: when the request went out).
  for (const request of [nodes[0], pending[0]]) {
    expect(request.timing().startTime).toBeLessThan(userAnswered);
  }
});

// index.html asks for /api/settings itself (a preload), so that the first API requests need not
// wait for the scripts to run first; src/settings.ts's fetch must be handed that answer, not ask
// again (a preload whose mode or credentials differ from the fetch's is fetched twice).
const settingsRequestsOf = (page: Page): Request[] => {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/settings') seen.push(request);
  });
  return seen;
};

test('the settings are asked for once, with the page, logged out and logged in', async ({ browser }) => {
  const page = await loggedInPage(browser, createUser('Grace', 'Settings'));
  const settings = settingsRequestsOf(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  expect(settings).toHaveLength(1);

  const loggedOut = await browser.newPage();
  const loggedOutSettings = settingsRequestsOf(loggedOut);
  await loggedOut.goto('/login');
  await expect(loggedOut.getByRole('button', { name: 'Login' })).toBeVisible();
  expect(loggedOutSettings).toHaveLength(1);
  await loggedOut.context().close();
  await page.context().close();
});
