import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { e2eRuntimeDir } from '../../playwright.config';
import type { TestUser } from './users';

// Helpers of the admin spec (admin.spec.ts): testbed-scale data through the operator CLI, many
// accounts at once, and the API calls that arrange what the browser then acts on.

/** The CLI's environment against the database of the server under test (see support/serve.mjs). */
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, STORAGE_DIR: join(e2eRuntimeDir, 'storage') };
  delete env.DATABASE_URL;
  return env;
}

export interface SeedRun {
  output: string;
  seconds: number;
}

/** `npm run cli -- seed --users N --teams N --activity N` against the e2e database; says how long it took. */
export function seed(options: { users: number; teams: number; activity: number }): SeedRun {
  const started = Date.now();
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/src/cli.ts', 'seed', '--users', String(options.users), '--teams', String(options.teams), '--activity', String(options.activity)],
    { env: cliEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  return { output: output.trim(), seconds: (Date.now() - started) / 1000 };
}

let made = 0;

/** An account to create: names as given, a unique email and a passphrase the password rules accept. */
export function newAccount(firstname: string, lastname: string): TestUser {
  made += 1;
  const slug = `${firstname}.${lastname}`.toLowerCase().replace(/[^a-z.]/g, '');
  return {
    firstname,
    lastname,
    // The process id too: two browser workers run at once, each counting from 1.
    email: `${slug}.${Date.now()}.${process.pid}.${made}@example.org`,
    password: `${slug}-rides-a-long-passphrase-${made}`,
  };
}

/**
 * Creates the accounts (verified, policy accepted) with the CLI's `user:create`, all in one
 * process (support/create-users.mjs): one CLI start per account would take about a second each.
 */
export function createUsers(accounts: (TestUser & { admin?: boolean })[]): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'e2e/support/create-users.mjs'], {
    env: cliEnv(),
    input: JSON.stringify(accounts),
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

/** A JSON API call with a bearer token; fails the test on an unexpected status. */
export async function api<T = any>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  token: string | null,
  body?: unknown,
  expected: number[] = [200, 201, 204],
): Promise<T> {
  const response = await request.fetch(path, {
    method,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { data: body }),
  });
  const text = await response.text();
  expect(expected, `${method} ${path} answered ${response.status()}: ${text.slice(0, 500)}`).toContain(response.status());
  return (text ? JSON.parse(text) : undefined) as T;
}

/** POST /login: a session token for `user`. */
export async function login(request: APIRequestContext, user: TestUser): Promise<string> {
  const answer = await api<{ token: string }>(request, 'POST', '/login', null, { email: user.email, password: user.password });
  return answer.token;
}

/** Runs `work` over `items`, `parallel` at a time (the server has two cores to share). */
export async function inBatches<T, R>(items: T[], parallel: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += parallel) {
    results.push(...(await Promise.all(items.slice(start, start + parallel).map((item, offset) => work(item, start + offset)))));
  }
  return results;
}

export interface TeamForm {
  fullname: string;
  shortname: string;
  url: string;
  joining_reason: string;
}

/**
 * A team asked for by its future owner (POST /api/requests/teams) and approved by a platform
 * admin, as the console does it; answers the team (GET /api/tenants/{name}) as its owner sees it.
 */
export async function approvedTeam(request: APIRequestContext, tokens: { owner: string; admin: string }, form: TeamForm): Promise<any> {
  const asked = await api(request, 'POST', '/api/requests/teams', tokens.owner, {
    ...form,
    affiliation: 'University of Somewhere',
    country: 'France',
    joining_category: 'Research',
  });
  await api(request, 'PATCH', `/api/requests/${asked.id}`, tokens.admin, { action: 'approve' });
  return api(request, 'GET', `/api/tenants/${form.shortname.toLowerCase().replace(/\W+/g, '')}`, tokens.owner);
}
