import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { verifyPassword } from '../src/users/passwords.js';
import { createTestDatabase, type TestDatabase, uniqueEmail } from './helpers.js';

let workDir: string;
let database: TestDatabase;
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-console-cli-'));
  database = await createTestDatabase(workDir);
});
afterAll(async () => {
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, database.db, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const userArgs = (email: string, ...extra: string[]) => [
  'user:create',
  '--email',
  email,
  '--password',
  'a long passphrase',
  '--firstname',
  'Ada',
  '--lastname',
  'Lovelace',
  ...extra,
];

const findUser = (email: string) => database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

describe('npm run cli -- migrate', () => {
  it('says the schema is up to date when it is', async () => {
    const result = await cli('migrate');
    expect(result).toEqual({ code: 0, out: 'The database is up to date.', err: '' });
  });
});

describe('npm run cli -- user:create', () => {
  it('creates a plain user who still has to verify and accept the policy', async () => {
    const email = uniqueEmail('plain');
    const result = await cli(...userArgs(email));
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Created ${email}`);
    const user = await findUser(email);
    expect(user).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace', admin: 0, enabled: 1, email_verified_at: null, aup_accepted_at: null });
    expect(await verifyPassword(user!.password_hash, 'a long passphrase')).toBe(true);
  });

  it('creates a verified platform admin with --admin --verified, email normalised', async () => {
    const email = uniqueEmail('admin');
    const result = await cli(...userArgs(`  ${email.toUpperCase()} `, '--admin', '--verified'));
    expect(result.code).toBe(0);
    expect(result.out).toContain('platform admin, verified');
    const user = await findUser(email);
    expect(user?.admin).toBe(1);
    expect(user?.email_verified_at).not.toBeNull();
    expect(user?.aup_accepted_at).not.toBeNull();
  });

  it('refuses a duplicate email with a clear message and exit code 1', async () => {
    const email = uniqueEmail('dup');
    await cli(...userArgs(email));
    const result = await cli(...userArgs(email));
    expect(result.code).toBe(1);
    expect(result.err).toContain('The email has already been taken.');
  });

  it('refuses a short password and a bad email, naming the options', async () => {
    const result = await cli('user:create', '--email', 'nope', '--password', 'short', '--firstname', 'A', '--lastname', 'B');
    expect(result.code).toBe(1);
    expect(result.err).toContain('--email: Invalid email');
    expect(result.err).toContain('--password: The password field must be at least 8 characters.');
  });

  it('refuses missing options', async () => {
    const result = await cli('user:create', '--email', uniqueEmail('partial'));
    expect(result.code).toBe(1);
    expect(result.err).toContain('--password: The password field is required.');
    expect(result.err).toContain('--firstname: The firstname field is required.');
  });

  it('refuses unknown options with the usage', async () => {
    const result = await cli(...userArgs(uniqueEmail('unknown-option'), '--superuser'));
    expect(result.code).toBe(1);
    expect(result.err).toContain("Unknown option '--superuser'");
    expect(result.err).toContain('Usage: npm run cli');
  });
});

describe('npm run cli -- user:promote', () => {
  it('makes an existing user a platform admin', async () => {
    const email = uniqueEmail('promote');
    await cli(...userArgs(email));
    const result = await cli('user:promote', email.toUpperCase());
    expect(result).toEqual({ code: 0, out: `${email} is now a platform admin.`, err: '' });
    expect((await findUser(email))?.admin).toBe(1);
  });

  it('fails for an unknown email', async () => {
    const result = await cli('user:promote', 'nobody@example.org');
    expect(result.code).toBe(1);
    expect(result.err).toBe('No user has the email nobody@example.org.');
  });

  it('needs exactly one email', async () => {
    expect((await cli('user:promote')).code).toBe(1);
    expect((await cli('user:promote', 'a@b', 'c@d')).code).toBe(1);
  });
});

describe('other commands', () => {
  it('prints the usage for an unknown or missing command and fails', async () => {
    const unknown = await cli('user:delete');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown command: user:delete');
    const none = await cli();
    expect(none.code).toBe(1);
    expect(none.err).toContain('user:create --email E');
  });
});
