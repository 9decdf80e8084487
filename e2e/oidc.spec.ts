import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './support/screens';

// Institutional sign-in in the browser, through a real OpenID provider: oidc-provider
// as `npm run oidc:dev` runs it (support/serve.mjs starts it and configures the console), with
// its page to pick an account or refuse. Sign up, sign out, sign in again to the same account;
// a refused consent and an unverified email at the provider (refused: no account from it).
test.describe.configure({ mode: 'serial' });

let page: Page;
let firstUserId: number;

/** The id of the signed-in user, asked with the console's own token. */
const currentUserId = (target: Page) =>
  target.evaluate(async () => {
    const token = localStorage.getItem('authentication_token');
    const response = await fetch('/user', { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    return ((await response.json()) as { id: number }).id;
  });

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
});
test.afterAll(async () => {
  await page.context().close();
});

async function atWidths(target: Page, name: string) {
  await target.setViewportSize({ width: 1280, height: 860 });
  await screenshot(target, `${name}-1280`);
  await target.setViewportSize({ width: 390, height: 844 });
  await screenshot(target, `${name}-390`);
  await target.setViewportSize({ width: 1280, height: 860 });
}

test('a first sign-in with the institution creates the account from its claims', async () => {
  await page.goto('/');
  const button = page.getByRole('link', { name: 'Sign in with Test University' });
  await expect(button).toBeVisible();
  await atWidths(page, 'oidc-01-login');
  await button.click();

  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByRole('button', { name: /Alan Turing/ }).click();

  // The provider vouched for the email: the policy step comes next.
  await expect(page.getByText('Terms of service').first()).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  await page.getByLabel(/I have read and agree/i).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Alan Turing', level: 1 })).toBeVisible();
  await expect(page.getByText('alan@uni.example').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Institutional sign-in' }).getByText(/Test University · alan@uni.example/)).toBeVisible();
  await atWidths(page, 'oidc-02-profile');
  firstUserId = await currentUserId(page);
});

test('signed out, the same institutional account signs in again to the same account', async () => {
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page.getByRole('link', { name: 'Sign in with Test University' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Test University' }).click();
  // The provider still knows the person and their consent: straight back, signed in.
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Alan Turing', level: 1 })).toBeVisible();
  expect(await currentUserId(page)).toBe(firstUserId);
});

test('a refused consent ends on the login page with a clear message', async ({ browser }) => {
  const other = await (await browser.newContext()).newPage();
  await other.goto('/');
  await other.getByRole('link', { name: 'Sign in with Test University' }).click();
  await expect(other.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await other.getByRole('button', { name: 'Refuse' }).click();
  await expect(other.getByRole('alert')).toHaveText('You did not allow Test University to sign you in.');
  await expect(other.getByRole('button', { name: 'Login' })).toBeVisible();
  await atWidths(other, 'oidc-03-refused');
  await other.context().close();
});

test('an email the provider does not vouch for makes no account: the login page says why', async ({ browser }) => {
  const other = await (await browser.newContext()).newPage();
  await other.goto('/');
  await other.getByRole('link', { name: 'Sign in with Test University' }).click();
  await other.getByRole('button', { name: /Grace Hopper/ }).click();
  await expect(other.getByRole('alert')).toHaveText(
    'Test University has not confirmed your email address, so no account can be made from it. Register with your email and a password, then link Test University from your profile.',
  );
  await expect(other.getByRole('button', { name: 'Login' })).toBeVisible();
  await atWidths(other, 'oidc-04-unverified');
  await other.context().close();
});
