#!/usr/bin/env node
// Creates many ready-to-use accounts in one process (run with `node --import tsx`): the same
// `user:create` command as `npm run cli`, through the CLI's own runCli, but without
// paying a process start per account. Reads a JSON array of
// {email, password, firstname, lastname, admin?} on stdin; the database is the configured one
// (STORAGE_DIR / DATABASE_URL, as for the CLI).
import { runCli } from '../../server/src/cli.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { createDatabase } from '../../server/src/db/database.ts';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const accounts = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const db = createDatabase(loadConfig().databaseUrl);
let failed = 0;
try {
  for (const account of accounts) {
    const args = ['user:create', '--email', account.email, '--password', account.password, '--firstname', account.firstname,
      '--lastname', account.lastname, '--verified'];
    if (account.admin) args.push('--admin');
    const code = await runCli(args, db, { out: () => undefined, err: (line) => console.error(`${account.email}: ${line}`) });
    if (code !== 0) failed += 1;
  }
} finally {
  await db.destroy();
}
console.log(`Created ${accounts.length - failed} of ${accounts.length} accounts.`);
process.exitCode = failed ? 1 : 0;
