import { expect, test, type Page } from '@playwright/test';
import { linkIn, waitForMail } from './support/mail';
import { screenshot } from './support/screens';

// One person's whole account life in the browser, against `npm start` on a fresh database:
// register, verify through the mailed link, accept the policy, use the console, recover a
// forgotten password. Steps run in order and share one browser page.
test.describe.configure({ mode: 'serial' });

const person = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  email: `ada.${Date.now()}@example.org`,
  password: 'analytical-engine-1843',
  newPassword: 'difference-engine-1822',
};

let page: Page;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
});

test.afterAll(async () => {
  await page.context().close();
});

async function logIn(email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('the login screen is shown at / and at any unmatched path while logged out', async () => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: /forgot/i })).toBeVisible();
  await expect(page.getByRole('link', { name: /register/i })).toBeVisible();
  await screenshot(page, '01-login');

  await page.goto('/some/unknown/place');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('whatever');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
});

test('registration validates, shows server errors under the fields, then thanks the user', async () => {
  await page.goto('/');
  await page.getByRole('link', { name: /register/i }).click();
  await expect(page).toHaveURL(/\/registration$/);

  await page.getByLabel('First name').fill(person.firstname);
  await page.getByLabel('Last name').fill(person.lastname);
  await page.getByLabel('Email').fill('ada at example');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Password confirmation').fill('different');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();

  // The client accepts the address; the server refuses the short, unconfirmed password.
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/at least 8 characters/i)).toBeVisible();
  await expect(page.getByText(/confirmation does not match/i)).toBeVisible();
  await screenshot(page, '02-registration-errors');

  // A common password: the strength meter (zxcvbn, loaded on demand) says so as it is typed,
  // and the form refuses it with zxcvbn's advice.
  await page.getByLabel('Password', { exact: true }).fill('password');
  await page.getByLabel('Password confirmation').fill('password');
  const meter = page.getByRole('progressbar', { name: 'Password strength: very weak' });
  await expect(meter).toBeVisible();
  await expect(meter).toHaveAttribute('aria-valuenow', '20');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('The password is too easy to guess. This is a heavily used password.', { exact: false })).toBeVisible();
  await screenshot(page, '02b-registration-weak-password');

  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Password confirmation').fill(person.password);
  await expect(page.getByRole('progressbar', { name: /^Password strength: (strong|very strong)$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/validation email/i)).toBeVisible();
  await screenshot(page, '03-registration-thanks');
  await expect(page.getByRole('link', { name: /log ?in/i })).toBeVisible();
});

test('registering the same address again says it is taken', async () => {
  await page.goto('/registration');
  await page.getByLabel('First name').fill('Someone');
  await page.getByLabel('Last name').fill('Else');
  await page.getByLabel('Email').fill(person.email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Password confirmation').fill(person.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/already been taken/i)).toBeVisible();
});

test('a new user logs in to the Verification step and verifies through the mailed link', async () => {
  await page.goto('/');
  await logIn(person.email, person.password);
  await expect(page.getByText('Verification').first()).toBeVisible();
  await expect(page.getByText(/spam/i)).toBeVisible();
  await screenshot(page, '04-onboarding-verification');

  const askedAt = new Date(Date.now() - 1000);
  await expect(page.getByText(`We sent a link to ${person.email}`, { exact: false })).toBeVisible();
  await expect(page.getByText(/2 steps remain/)).toBeVisible();
  await page.getByRole('button', { name: 'Resend the link' }).click();
  await expect(page.getByText(/We sent a new link to .*The earlier one still works/)).toBeVisible();
  const mail = await waitForMail(person.email, /verif/i, askedAt);
  expect(mail.html).toContain('/email/verify/');

  await page.goto(linkIn(mail, '/email/verify/'));
  await expect(page.getByText(/email address is verified/i)).toBeVisible();
  await screenshot(page, '05-email-verified');
});

test('a tampered verification link is refused with a way to ask for a new one', async () => {
  const mail = await waitForMail(person.email, /verif/i);
  const link = new URL(linkIn(mail, '/email/verify/'));
  link.searchParams.set('signature', '0'.repeat(64));
  await page.goto(link.toString());
  await expect(page.getByText(/invalid or has expired/i)).toBeVisible();
  await screenshot(page, '06-email-verify-invalid');
});

test('the policy must be agreed to before Submit, then the console opens', async () => {
  await page.goto('/');
  await expect(page.getByText('Terms of service').first()).toBeVisible();
  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await expect(page.getByText(/acceptable use policy/i).first()).toBeVisible();
  await screenshot(page, '07-onboarding-terms');

  await page.getByLabel(/I have read and agree/i).check();
  await expect(submit).toBeEnabled();
  await submit.click();

  await expect(page.getByRole('heading', { name: 'Your workspaces' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your nodes' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  await screenshot(page, '08-home');
});

test('the profile can be edited; names are required', async () => {
  await page.goto('/profile');
  await expect(page.getByText(person.email)).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('First name').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/required/i).first()).toBeVisible();

  await page.getByLabel('First name').fill('Augusta Ada');
  await page.getByLabel('Last name').fill('King');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Augusta Ada King').first()).toBeVisible();
  await screenshot(page, '09-profile');

  await page.reload();
  await expect(page.getByText('Augusta Ada King').first()).toBeVisible();
});

test('an access token is shown once, works against the API, and stops working when deleted', async ({ request }) => {
  await page.goto('/tokens');
  await screenshot(page, '10-tokens-empty');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Create an access token' });
  await form.getByLabel('Name', { exact: true }).fill('laptop-cli');
  await form.getByRole('button', { name: 'Create', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Token created' });
  await expect(dialog).toBeVisible();
  const plainText = await dialog.getByRole('textbox', { name: 'Access token' }).inputValue();
  expect(plainText).toMatch(/^\d+\|\S{20,}$/);
  await expect(dialog.getByText(/not be shown again/i)).toBeVisible();
  await screenshot(page, '11-token-created');

  const me = await request.get('/user', { headers: { Authorization: `Bearer ${plainText}`, Accept: 'application/json' } });
  expect(me.status()).toBe(200);
  expect((await me.json()).email).toBe(person.email);

  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Access token' })).toHaveCount(0);
  await page.goto('/tokens');
  await expect(page.getByText('laptop-cli')).toBeVisible();
  await expect(page.locator(`text=${plainText}`)).toHaveCount(0);
  await screenshot(page, '12-tokens-list');

  await page.getByRole('button', { name: 'Delete' }).first().click();
  await expect(page.getByRole('dialog')).toContainText('laptop-cli');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('laptop-cli')).toHaveCount(0);

  const refused = await request.get('/user', { headers: { Authorization: `Bearer ${plainText}`, Accept: 'application/json' } });
  expect(refused.status()).toBe(401);
});

test('logging out returns to the login screen', async () => {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authentication_token'))).toBeNull();

  // The console's router keeps a screen until the next one's code has loaded; the login page it
  // shows now loads the code of its links' screens, so following one replaces the form at once,
  // even with no more code arriving.
  const chunkLoaded = () =>
    page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/ForgotPasswordPage-[^/]*\.js$/.test(entry.name)));
  await expect.poll(chunkLoaded, { message: 'the forgotten-password screen loaded with the login page' }).toBe(true);
  await page.waitForTimeout(500); // the chunk's module runs once fetched
  await page.route(/\.js$/, () => undefined); // no more code answers
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
  await page.unroute(/\.js$/);
});

test('a forgotten password is reset through the mailed link, once', async () => {
  await page.goto('/');
  // The page's code held back, as on a slow network: the login form goes at once (what is typed
  // meanwhile cannot land in it), and a progress shows until the page's code arrives.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const forgotChunk = /\/assets\/ForgotPasswordPage-[^/]*\.js$/;
  await page.route(forgotChunk, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL(/\/password$/);
  await expect(page.getByRole('progressbar', { name: 'Loading…' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.unroute(forgotChunk);
  const askedAt = new Date(Date.now() - 1000);
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await screenshot(page, '13-password-link-sent');

  const mail = await waitForMail(person.email, /reset/i, askedAt);
  const link = linkIn(mail, '/password/reset/');
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill(person.newPassword);
  await page.getByLabel('Password confirmation').fill('something-else-entirely');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText(/confirmation does not match/i)).toBeVisible();

  await page.getByLabel('Password confirmation').fill(person.newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible();
  await expect(page.getByText(/personal access token of the account has been revoked/)).toBeVisible();
  await screenshot(page, '14-password-updated');
  // The owner is told by mail that every session and token was revoked.
  const changed = await waitForMail(person.email, /password was changed/i, askedAt);
  expect(changed.text).toContain('every login session and every personal access token of your account was revoked');

  // The link works once.
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill('yet-another-password');
  await page.getByLabel('Password confirmation').fill('yet-another-password');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText(/invalid or has expired/i)).toBeVisible();
});

test('the old password no longer works; the new one does', async () => {
  await page.goto('/');
  await logIn(person.email, person.password);
  await expect(page.getByText(/do not match our records/i)).toBeVisible();

  await logIn(person.email, person.newPassword);
  await expect(page.getByRole('heading', { name: 'Your workspaces' })).toBeVisible();
});

test('an unmatched console route says so', async () => {
  await page.goto('/no/such/screen');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeVisible();
  await screenshot(page, '15-not-found');
});
