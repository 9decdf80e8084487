import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config/config.js';
import { createDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { seedDatabase } from './db/seed.js';
import type { Database } from './db/schema.js';
import { HttpError } from './http/errors.js';
import { strongPassword } from './auth/passwordStrength.js';
import { emailField, newPasswordField, requiredText } from './http/schemas.js';
import { createUser, promoteToAdmin } from './users/users.js';

// `npm run cli -- <command>`: operator commands against the configured database.
// runCli is the whole CLI minus process handling, so tests call it directly.

export const USAGE = [
  'Usage: npm run cli -- <command>',
  '',
  '  migrate',
  '      Bring the database schema up to date.',
  '  user:create --email E --password P --firstname F --lastname L [--admin] [--verified]',
  '      Create a user. --admin makes a platform admin; --verified marks the email verified',
  '      and the acceptable use policy accepted.',
  '  user:promote EMAIL',
  '      Make an existing user a platform admin.',
  '  seed [--users N] [--teams N] [--activity N]',
  '      Add plausible people (a few admins), teams, memberships, workspaces and a year of',
  '      activity in bulk, for trying the console at scale (defaults 1000, 100, 10000).',
].join('\n');

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const newUserInput = z.object({
  firstname: requiredText('firstname'),
  lastname: requiredText('lastname'),
  email: emailField(),
  password: newPasswordField(),
}).check(strongPassword());

/** Runs one command; answers the process exit code. */
export async function runCli(args: string[], db: Kysely<Database>, output: CliOutput): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'migrate':
        return await migrateCommand(db, output);
      case 'user:create':
        return await createUserCommand(rest, db, output);
      case 'user:promote':
        return await promoteCommand(rest, db, output);
      case 'seed':
        return await seedCommand(rest, db, output);
      default:
        output.err(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE);
        return 1;
    }
  } catch (error) {
    // Bad input is reported as a message, not a stack trace.
    if (error instanceof HttpError) {
      output.err(error.message);
      return 1;
    }
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      output.err(`${error.message}\n\n${USAGE}`);
      return 1;
    }
    throw error;
  }
}

const seedCount = (field: string, fallback: number) =>
  z.coerce
    .number({ error: `--${field} must be a number.` })
    .int(`--${field} must be a whole number.`)
    .min(0, `--${field} must be between 0 and 10000000.`)
    .max(10_000_000, `--${field} must be between 0 and 10000000.`)
    .default(fallback);

const seedInput = z.object({ users: seedCount('users', 1000), teams: seedCount('teams', 100), activity: seedCount('activity', 10_000) });

async function seedCommand(args: string[], db: Kysely<Database>, output: CliOutput): Promise<number> {
  const { values } = parseArgs({ args, options: { users: { type: 'string' }, teams: { type: 'string' }, activity: { type: 'string' } } });
  const parsed = seedInput.safeParse(values);
  if (!parsed.success) {
    output.err(parsed.error.issues.map((issue) => issue.message).join('\n'));
    return 1;
  }
  await migrate(db);
  const result = await seedDatabase(db, parsed.data, (line) => output.out(`  ${line}`));
  output.out(
    `Seeded ${result.users} users (${result.admins} admins), ${result.teams} teams with ${result.memberships} memberships, ` +
      `${result.workspaces} workspaces with ${result.workspaceMemberships} members, ${result.activity} activity entries ` +
      `in ${(result.milliseconds / 1000).toFixed(1)} s.`,
  );
  return 0;
}

async function migrateCommand(db: Kysely<Database>, output: CliOutput): Promise<number> {
  const applied = await migrate(db);
  output.out(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  return 0;
}

async function createUserCommand(args: string[], db: Kysely<Database>, output: CliOutput): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      admin: { type: 'boolean', default: false },
      verified: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const parsed = newUserInput.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) output.err(`--${issue.path.join('.')}: ${issue.message}`);
    return 1;
  }

  await migrate(db);
  const user = await createUser(db, { ...parsed.data, admin: values.admin, verified: values.verified });
  const traits = [user.admin ? 'platform admin' : 'user', user.email_verified_at ? 'verified' : 'not verified'];
  output.out(`Created ${user.email} (id ${user.id}, ${traits.join(', ')}).`);
  return 0;
}

async function promoteCommand(args: string[], db: Kysely<Database>, output: CliOutput): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  if (positionals.length !== 1) {
    output.err(`user:promote takes exactly one email address.\n\n${USAGE}`);
    return 1;
  }
  await migrate(db);
  const user = await promoteToAdmin(db, positionals[0]);
  if (!user) {
    output.err(`No user has the email ${positionals[0]}.`);
    return 1;
  }
  output.out(`${user.email} is now a platform admin.`);
  return 0;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.databaseUrl);
  try {
    process.exitCode = await runCli(process.argv.slice(2), db, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  });
}
