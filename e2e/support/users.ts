import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { e2eRuntimeDir } from '../../playwright.config';

export interface TestUser {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
}

let created = 0;

/**
 * Creates a ready-to-use account (verified, policy accepted) through the operator CLI, against
 * the same database the server under test uses: the browser flows of registration are covered
 * by accounts.spec.ts, so the other specs start from onboarded people.
 */
export function createUser(firstname: string, lastname: string, options: { admin?: boolean } = {}): TestUser {
  created += 1;
  const user = {
    firstname,
    lastname,
    email: `${firstname.toLowerCase()}.${Date.now()}.${created}@example.org`,
    password: `${firstname.toLowerCase()}-long-passphrase`,
  };
  const args = ['--import', 'tsx', 'server/src/cli.ts', 'user:create', '--email', user.email, '--password', user.password,
    '--firstname', firstname, '--lastname', lastname, '--verified'];
  if (options.admin) args.push('--admin');
  // The same fresh SQLite database as the server under test (see support/serve.mjs).
  const env: NodeJS.ProcessEnv = { ...process.env, STORAGE_DIR: join(e2eRuntimeDir, 'storage') };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, args, { env, stdio: 'pipe' });
  return user;
}

/** A browser context of its own for `user`, logged in and on the console home. */
export async function loggedInPage(browser: Browser, user: TestUser, options: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
  return page;
}
