import { expect, type Browser, type Page } from '@playwright/test';
import { createUsers, newAccount } from './admin';

export interface TestUser {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
}

/**
 * Creates a ready-to-use account (verified, policy accepted) through the operator CLI, against
 * the same database the server under test uses: the browser flows of registration are covered
 * by accounts.spec.ts, so the other specs start from onboarded people.
 */
export function createUser(firstname: string, lastname: string, options: { admin?: boolean } = {}): TestUser {
  const user = newAccount(firstname, lastname);
  createUsers([{ ...user, admin: options.admin }]);
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
