import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { linkIn, waitForMail } from './support/mail';

// French: a person whose browser speaks English switches to French on the login page,
// registers (the server's messages and the verification mail in French), goes through the
// onboarding and lands on the console home, all in French; no translation key and none of the
// console's English words on any screen. Screenshots at 1280 and 390 px wide.
test.describe.configure({ mode: 'serial' });

const person = {
  firstname: 'Émilie',
  lastname: 'du Châtelet',
  email: `emilie.${Date.now()}@example.org`,
  password: 'principia-mathematica-1749',
};

// Strings of the English console that must not show once in French (whole words or phrases).
const ENGLISH = [
  'Console Home',
  'Your workspaces',
  'Your nodes',
  'Your teams',
  'Login',
  'Log in',
  'Register',
  'Password',
  'First name',
  'Last name',
  'Submit',
  'Cancel',
  'Logout',
  'Loading',
  'Requests',
  'Nodes',
  'Tokens',
  'Profile',
  'Workspaces',
  'Verification',
  'Terms of service',
  'Back to login',
  'Forgot password',
  'Thank you',
  'Welcome',
  'No workspaces',
  'Expand all',
  'Add a Node',
  'Access tokens',
  'Your requests',
  'Create',
  'Name',
  'Status',
  'Never',
];

let page: Page;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  page = await context.newPage();
});

test.afterAll(async () => {
  await page.context().close();
});

/** Fails on a translation key ('auth.login.title') or an English string on screen. */
async function expectAllFrench(where: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const text = await page.locator('body').innerText();
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  const keys = lines.filter((line) => /^[a-z]+(\.[a-z_]+)+$/.test(line));
  expect(keys, `translation keys on ${where}`).toEqual([]);
  const english = ENGLISH.filter((words) => new RegExp(`(^|[^\\p{L}])${words}([^\\p{L}]|$)`, 'u').test(text));
  expect(english, `English on ${where}:\n${text}`).toEqual([]);
  // Labels and names that are not text: buttons' accessible names.
  const labels = await page.locator('[aria-label]').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? ''));
  expect(labels.filter((label) => /^[a-z]+(\.[a-z_]+)+$/.test(label) || ENGLISH.includes(label)), `aria-labels on ${where}`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
}

/** The screen at 1280 and at 390 px wide (full page), into the test's output folder. */
async function screens(testInfo: TestInfo, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
    if (width === 390) await expectAllFrench(`${name} at 390 px`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

test('the login page switches to French from its language menu', async ({}, testInfo) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await page.getByRole('button', { name: 'Language: English' }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
  await expectAllFrench('the login page');
  await screens(testInfo, '01-connexion');

  // The choice stays after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
});

test('registration in French: the server refuses in French, then thanks and mails in French', async ({}, testInfo) => {
  await page.getByRole('link', { name: 'S’inscrire' }).click();
  await expect(page).toHaveURL(/\/registration$/);
  await expect(page.getByRole('heading', { name: 'Créer un compte' })).toBeVisible();
  await page.getByLabel('Prénom').fill(person.firstname);
  await page.getByLabel('Nom', { exact: true }).fill(person.lastname);
  await page.getByLabel('Adresse e-mail').fill(person.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill('court');
  await page.getByLabel('Confirmation du mot de passe').fill('autre');
  // The strength meter appears once zxcvbn has loaded and moves the button down: clicking
  // before it settles can land where the button was (as the English registration test waits).
  await expect(page.getByRole('progressbar', { name: 'Robustesse du mot de passe : très faible' })).toBeVisible();
  // Waits for the server's answer, so a refusal for another reason (a rate limit, English
  // messages) is reported as such rather than as a missing text.
  const refusal = page.waitForResponse((response) => new URL(response.url()).pathname === '/register' && response.request().method() === 'POST');
  await page.getByRole('button', { name: 'S’inscrire' }).click();
  const answer = await refusal;
  expect({ status: answer.status(), body: await answer.text() }).toMatchObject({ status: 422, body: expect.stringContaining('au moins 8 caractères') });
  await expect(page.getByText('Le champ mot de passe doit contenir au moins 8 caractères.')).toBeVisible();
  await expect(page.getByText('La confirmation du mot de passe ne correspond pas.').first()).toBeVisible();
  await expectAllFrench('the registration errors');
  await screens(testInfo, '02-inscription-erreurs');

  await page.getByLabel('Mot de passe', { exact: true }).fill(person.password);
  await page.getByLabel('Confirmation du mot de passe').fill(person.password);
  await expect(page.getByRole('progressbar', { name: /^Robustesse du mot de passe : (bonne|très bonne)$/ })).toBeVisible();
  await page.getByRole('button', { name: 'S’inscrire' }).click();
  await expect(page.getByText('Merci de votre inscription !')).toBeVisible();
  await expectAllFrench('the registration thanks');
  await screens(testInfo, '03-inscription-merci');

  const mail = await waitForMail(person.email, /^Vérifiez votre adresse e-mail/);
  expect(mail.text).toContain(`Bonjour ${person.firstname},`);
});

test('onboarding in French: verification through the French mail, the policy, then the home', async ({}, testInfo) => {
  await page.goto('/');
  await page.getByLabel('Adresse e-mail').fill(person.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { name: 'Terminez la configuration de votre compte' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Vérifiez votre adresse e-mail' })).toBeVisible();
  await expectAllFrench('the verification step');
  await screens(testInfo, '04-verification');

  // The choice made before signing in is now the account's: its mails come in French.
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const response = await fetch('/user', { headers: { Accept: 'application/json', Authorization: `Bearer ${localStorage.getItem('authentication_token')}` } });
        return (await response.json()).locale;
      }),
    )
    .toBe('fr');

  const askedAt = new Date(Date.now() - 1000);
  await expect(page.getByText(/Nous avons envoyé un lien à .* à la création de votre compte/)).toBeVisible();
  await page.getByRole('button', { name: 'Renvoyer le lien' }).click();
  await expect(page.getByText(/Nous avons envoyé un nouveau lien à .*Le précédent reste valable/).first()).toBeVisible();
  const mail = await waitForMail(person.email, /^Vérifiez votre adresse e-mail/, askedAt);
  await page.goto(linkIn(mail, '/email/verify/'));
  await expect(page.getByText('Votre adresse e-mail est vérifiée.').first()).toBeVisible();
  await expectAllFrench('the verified page');

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Acceptez la charte d’utilisation' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Valider' });
  await expect(submit).toBeDisabled();
  await expectAllFrench('the policy step');
  await screens(testInfo, '05-charte');
  await page.getByLabel('J’ai lu la charte d’utilisation et je l’accepte').check();
  await submit.click();

  await expect(page.getByRole('heading', { name: 'Vos espaces de travail' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Vos nœuds' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Vos équipes' })).toBeVisible();
  await expectAllFrench('the home');
  await screens(testInfo, '06-accueil');
});

test('the console pages in French, and the app bar menu back to English', async ({}, testInfo) => {
  for (const [path, shown, name] of [
    ['/nodes', 'Vous n’avez encore ajouté aucun nœud.', '07-noeuds'],
    ['/tokens', 'Aucun jeton d’accès pour le moment', '08-jetons'],
    ['/profile', 'Vos demandes', '09-profil'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(shown).first()).toBeVisible();
    await expectAllFrench(path);
    await screens(testInfo, name);
  }

  await page.getByRole('button', { name: 'Langue: Français' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Your requests' })).toBeVisible();
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const response = await fetch('/user', { headers: { Accept: 'application/json', Authorization: `Bearer ${localStorage.getItem('authentication_token')}` } });
        return (await response.json()).locale;
      }),
    )
    .toBe('en');
});
