import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, dialectOf, timestamp } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import { createOutboxSender, enqueueMail, enqueueMails, type OutboxSenderOptions, pendingMailCount } from '../src/mail/outbox.js';
import { createTestContext, createTestDatabase, eventually, freePort, type Mailbox, pause, startMailbox, type TestContext, type TestDatabase, usingPostgres } from './helpers.js';
import {
  buildServerCopy,
  type PostgresCluster,
  postgresBinaries,
  type Spawned,
  spawnLogged,
  startPostgresCluster,
  waitUntilAnswering,
} from './processes.js';
import { createWorld, newPerson, submit, type World } from './teamFixtures.js';

// The mail outbox (server/src/mail/outbox.ts): a mail is a row written in the
// transaction of the action that causes it, sent by a kick after the commit or by the leader's
// sweep, with retries and backoff; a killed process loses nothing, and two live senders never
// send one mail twice. On SQLite, and on PostgreSQL when DATABASE_URL names one.

const silent = pino({ level: 'silent' });

/** A pino logger whose lines are kept. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const message = (to: string, subject = 'Outbox test', text = `Body for ${to}`) => ({ to, subject, text, html: `<p>${text}</p>` });
const rows = (db: Kysely<Database>) => db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

// ---------------------------------------------------------------------------------------

describe('the outbox and its senders', () => {
  let workDir: string;
  let database: TestDatabase;
  let db: Kysely<Database>;
  const mailers: Mailer[] = [];
  const closers: Array<() => Promise<void>> = [];

  const mailerTo = (port: number) => {
    const mailer = createMailer({ mailUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'console@testbed.test' }, silent);
    mailers.push(mailer);
    return mailer;
  };
  const catcher = async (port: number) => {
    const started = await startMailbox({ port });
    closers.push(started.close);
    return started;
  };
  const sender = (options: Partial<OutboxSenderOptions> & { mailer: Mailer }) => {
    const created = createOutboxSender({ db, logger: silent, ...options });
    closers.push(() => created.stop());
    return created;
  };

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'testbed-outbox-'));
    database = await createTestDatabase(workDir);
    db = database.db;
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    for (const mailer of mailers.splice(0)) mailer.close();
  });

  beforeEach(async () => {
    await db.deleteFrom('mail_outbox').execute();
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('writes a mail as a pending row due now, in the transaction it is given: a rollback leaves no row', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, message('rolled.back@example.org'));
        // Seen inside the transaction…
        expect(await trx.selectFrom('mail_outbox').select('id').execute()).toHaveLength(1);
        throw new Error('the action fails after writing its mail');
      }),
    ).rejects.toThrow('the action fails');
    // …and gone with it.
    expect(await rows(db)).toEqual([]);

    const before = Date.now();
    await db.transaction().execute((trx) => enqueueMail(trx, message('committed@example.org')));
    const [row] = await rows(db);
    expect(row).toMatchObject({ recipient: 'committed@example.org', subject: 'Outbox test', status: 'pending', attempts: 0, locked_until: null, last_error: null, sent_at: null });
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(row.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(await pendingMailCount(db)).toBe(1);
  });

  it('keeps a mail pending with its attempts and last error while SMTP is down, and the sweep sends it once SMTP is up', async () => {
    const port = await freePort();
    const outbox = sender({ mailer: mailerTo(port), backoffMs: [300], sweepIntervalMs: 100 });
    await enqueueMail(db, message('patient@example.org', 'Waits for SMTP'));
    outbox.kick();
    await outbox.idle();

    const [failed] = await rows(db);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, locked_until: null, sent_at: null });
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    // The next attempt waits for the backoff; a kick (never-tried mails only) leaves it alone.
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now() - 300);
    outbox.kick();
    await outbox.idle();
    expect((await rows(db))[0].attempts).toBe(1);

    const smtp = await catcher(port);
    outbox.start();
    await eventually(() => expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Waits for SMTP']), { timeoutMs: 10_000 });
    const [sent] = await eventually(async () => {
      const found = await rows(db);
      expect(found[0].status).toBe('sent');
      return found;
    }, { timeoutMs: 10_000 });
    expect(sent).toMatchObject({ attempts: 2, locked_until: null, last_error: null });
    expect(sent.sent_at).not.toBeNull();
    expect(await pendingMailCount(db)).toBe(0);
  });

  it('two senders on one database racing over 50 mails send each exactly once', async () => {
    const port = await freePort();
    const smtp = await catcher(port);
    // The second sender has a database connection (pool) of its own, as another process would.
    const schema = dialectOf(db) === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema : undefined;
    const otherDb = createDatabase(database.url, { searchPath: schema });
    closers.push(() => otherDb.destroy());

    const recipients = Array.from({ length: 50 }, (_, index) => `racer.${index}@example.org`);
    await enqueueMails(db, recipients.map((to) => message(to, 'Race')));
    const counted = (mailer: Mailer) => {
      const counter = { sent: 0, mailer: { ...mailer, send: async (mail: Parameters<Mailer['send']>[0]) => {
        await mailer.send(mail);
        counter.sent++;
      } } };
      return counter;
    };
    const a = counted(mailerTo(port));
    const b = counted(mailerTo(port));
    const one = sender({ mailer: a.mailer, batchSize: 3 });
    const two = createOutboxSender({ db: otherDb, mailer: b.mailer, logger: silent, batchSize: 3 });
    closers.push(() => two.stop());

    // Kicks and sweeps of both, all at once, then once more each.
    one.kick();
    two.kick();
    await Promise.all([one.sweep(), two.sweep(), one.idle(), two.idle()]);
    await Promise.all([one.sweep(), two.sweep()]);

    expect(smtp.messages).toHaveLength(50);
    expect(smtp.messages.flatMap((mail) => mail.to).sort()).toEqual([...recipients].sort());
    expect(a.sent + b.sent).toBe(50);
    // Both took part: the claims interleaved, and no mail went out twice.
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    const stored = await rows(db);
    expect(stored.map((row) => [row.status, row.attempts])).toEqual(recipients.map(() => ['sent', 1]));
  });

  it('sends what a killed process left: unclaimed mails and expired claims; a live claim is left to its sender', async () => {
    const port = await freePort();
    const smtp = await catcher(port);
    const now = Date.now();
    const at = (offsetMs: number) => timestamp(new Date(now + offsetMs));
    const base = { subject: 'Left behind', text: 'body', html: '<p>body</p>', created_at: at(-120_000), last_error: null, sent_at: null };
    await db
      .insertInto('mail_outbox')
      .values([
        // Written, then the process died before its kick.
        { ...base, recipient: 'unclaimed@example.org', status: 'pending', attempts: 0, next_attempt_at: at(-120_000), locked_until: null },
        // Claimed by a process that died while sending: its claim expired a second ago.
        { ...base, recipient: 'expired@example.org', status: 'pending', attempts: 1, next_attempt_at: at(-120_000), locked_until: at(-1000) },
        // Claimed by a live sender right now: not ours.
        { ...base, recipient: 'claimed@example.org', status: 'pending', attempts: 1, next_attempt_at: at(-120_000), locked_until: at(50_000) },
        // Already sent.
        { ...base, recipient: 'done@example.org', status: 'sent', attempts: 1, next_attempt_at: at(-120_000), locked_until: null, sent_at: at(-60_000) },
      ])
      .execute();

    const survivor = sender({ mailer: mailerTo(port) });
    const result = await survivor.sweep();
    expect(result).toMatchObject({ sent: 2, retried: 0, failed: 0 });
    expect(smtp.messages.flatMap((mail) => mail.to).sort()).toEqual(['expired@example.org', 'unclaimed@example.org']);
    const byRecipient = new Map((await rows(db)).map((row) => [row.recipient, row]));
    expect(byRecipient.get('expired@example.org')).toMatchObject({ status: 'sent', attempts: 2 });
    expect(byRecipient.get('unclaimed@example.org')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(byRecipient.get('claimed@example.org')).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(await survivor.sweep()).toMatchObject({ sent: 0 });
    expect(smtp.messages).toHaveLength(2);
  });

  it("gives a mail up after its last attempt: 'failed', last_error kept, logged as an error without the body", async () => {
    const { logger, lines } = capturingLogger();
    const outbox = sender({ mailer: mailerTo(await freePort()), logger, maxAttempts: 3, backoffMs: [0] });
    await enqueueMail(db, message('unlucky@example.org', 'Never arrives', 'SECRET-LINK-in-the-body'));
    outbox.kick();
    await outbox.idle();
    expect((await rows(db))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    // Retries are the sweep's: attempts 2 and 3 (no backoff here), then it gives up.
    const result = await outbox.sweep();
    expect(result).toMatchObject({ sent: 0, retried: 1, failed: 1 });
    const [row] = await rows(db);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, locked_until: null, sent_at: null });
    expect(row.last_error).toMatch(/ECONNREFUSED/);
    expect(await pendingMailCount(db)).toBe(0);
    expect(await outbox.sweep()).toMatchObject({ sent: 0, retried: 0, failed: 0 });

    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; mail?: { id: number; to: string } });
    const givenUp = entries.filter((entry) => entry.level === 50);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0].msg).toBe('Mail given up after 3 attempts');
    expect(givenUp[0].mail).toMatchObject({ id: row.id, to: 'unlucky@example.org' });
    expect(entries.filter((entry) => entry.level === 40)).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('SECRET-LINK');
  });

  it('deletes sent mails older than the retention in the sweep, and nothing else', async () => {
    const old = timestamp(new Date(Date.now() - 8 * 24 * 3600_000));
    const recent = timestamp(new Date(Date.now() - 24 * 3600_000));
    const base = { subject: 's', text: 't', html: 'h', created_at: old, next_attempt_at: old, locked_until: null, last_error: null };
    await db
      .insertInto('mail_outbox')
      .values([
        { ...base, recipient: 'old-sent@example.org', status: 'sent', attempts: 1, sent_at: old },
        { ...base, recipient: 'recent-sent@example.org', status: 'sent', attempts: 1, sent_at: recent },
        { ...base, recipient: 'old-failed@example.org', status: 'failed', attempts: 8, sent_at: null, last_error: 'refused' },
      ])
      .execute();
    const outbox = sender({ mailer: mailerTo(await freePort()) });
    expect(await outbox.sweep()).toMatchObject({ purged: 1 });
    expect((await rows(db)).map((row) => row.recipient)).toEqual(['recent-sent@example.org', 'old-failed@example.org']);
  });
});

// ---------------------------------------------------------------------------------------

/**
 * Makes the commit of any transaction that wrote a mail whose subject starts with `prefix`
 * fail, after everything in it ran: PostgreSQL through a deferred constraint trigger, SQLite
 * through a deferred foreign key that the trigger's row breaks (checked at COMMIT).
 */
async function failCommitsThatMail(db: Kysely<Database>, prefix: string): Promise<() => Promise<void>> {
  const pattern = `${prefix}%`;
  if (dialectOf(db) === 'postgres') {
    await sql`create function outbox_commit_guard() returns trigger language plpgsql as $$
      begin raise exception 'the commit fails after the mail was written'; end $$`.execute(db);
    await sql`create constraint trigger outbox_commit_guard after insert on mail_outbox deferrable initially deferred
      for each row when (new.subject like ${sql.lit(pattern)}) execute function outbox_commit_guard()`.execute(db);
    return async () => {
      await sql`drop trigger outbox_commit_guard on mail_outbox`.execute(db);
      await sql`drop function outbox_commit_guard()`.execute(db);
    };
  }
  await sql`create table outbox_guard_parent (id integer primary key)`.execute(db);
  await sql`create table outbox_guard (parent_id integer references outbox_guard_parent (id) deferrable initially deferred)`.execute(db);
  await sql`create trigger outbox_commit_guard after insert on mail_outbox when new.subject like ${sql.lit(pattern)}
    begin insert into outbox_guard (parent_id) values (-1); end`.execute(db);
  return async () => {
    await sql`drop trigger outbox_commit_guard`.execute(db);
    await sql`drop table outbox_guard`.execute(db);
    await sql`drop table outbox_guard_parent`.execute(db);
  };
}

describe('in the app: an action and its mail commit or roll back together', () => {
  let ctx: TestContext;
  let world: World;

  beforeAll(async () => {
    ctx = await createTestContext();
    world = await createWorld(ctx);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('a request decision whose transaction fails after writing the mail decides nothing and mails nobody', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    await ctx.mailbox.waitFor(world.people.owner.user.email, { subject: /New request/ });
    await ctx.idle();

    const restore = await failCommitsThatMail(ctx.db, 'Your request was approved');
    try {
      const refused = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'approve' } });
      expect(refused.statusCode).toBe(500);
    } finally {
      await restore();
    }
    await ctx.idle();
    const stored = await ctx.db.selectFrom('requests').select('status').where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('Pending');
    expect(await ctx.db.selectFrom('team_members').select('id').where('team_id', '=', world.team.id).where('user_id', '=', requester.user.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('mail_outbox').select('id').where('recipient', '=', requester.user.email).execute()).toEqual([]);
    expect(ctx.mailbox.messagesTo(requester.user.email)).toEqual([]);

    // The same decision, committed: the decision and its mail both.
    const approved = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'approve' } });
    expect(approved.statusCode).toBe(200);
    await ctx.mailbox.waitFor(requester.user.email, { subject: /approved/ });
    await ctx.idle();
    const mailRows = await ctx.db.selectFrom('mail_outbox').select(['status', 'attempts']).where('recipient', '=', requester.user.email).execute();
    expect(mailRows).toEqual([{ status: 'sent', attempts: 1 }]);
  });

  it('a password reset link whose transaction fails stores no link and mails nothing', async () => {
    const { user } = await ctx.createUser();
    const restore = await failCommitsThatMail(ctx.db, 'Reset your');
    try {
      // The link is made after the answer (same answer for every address); the failure is logged.
      expect((await ctx.inject('POST', '/password/link', { body: { email: user.email } })).statusCode).toBe(200);
      await ctx.idle();
    } finally {
      await restore();
    }
    expect(await ctx.db.selectFrom('password_resets').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('mail_outbox').select('id').where('recipient', '=', user.email).execute()).toEqual([]);
    expect(ctx.mailbox.messagesTo(user.email)).toEqual([]);

    expect((await ctx.inject('POST', '/password/link', { body: { email: user.email } })).statusCode).toBe(200);
    await ctx.mailbox.waitFor(user.email, { subject: /Reset your/ });
    expect(await ctx.db.selectFrom('password_resets').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------

describe('a server process SIGKILLed after an action that mails', () => {
  // The compiled server (as the image runs it: node main.js, a build of this test's own), started
  // directly so that SIGKILL reaches the server itself. On SQLite both processes open one file;
  // on PostgreSQL they share a throwaway cluster of the test's own, where nobody else holds the
  // leader lock (the sweep runs in the leader).
  const pgBin = postgresBinaries();
  const runs = !usingPostgres() || pgBin !== null;
  if (!runs) console.warn('\n*** SKIPPING the killed-process mail test on PostgreSQL: no server binaries (/usr/lib/postgresql/*/bin) ***\n');

  let workDir: string;
  let databaseUrl: string;
  let db: Kysely<Database>;
  let pg: PostgresCluster | null = null;
  let server: { main: string; remove(): void } | null = null;
  const processes: Spawned[] = [];
  let smtp: Mailbox | undefined;

  beforeAll(async () => {
    if (!runs) return;
    workDir = mkdtempSync(join(tmpdir(), 'testbed-outbox-kill-'));
    const [cluster, built] = await Promise.all([usingPostgres() ? startPostgresCluster(pgBin!) : null, buildServerCopy()]);
    pg = cluster;
    server = built;
    databaseUrl = pg ? pg.url : `sqlite:${join(workDir, 'shared.sqlite')}`;
    db = createDatabase(databaseUrl);
    await migrate(db);
  }, 120_000);

  afterAll(async () => {
    for (const one of processes) if (one.alive()) one.child.kill('SIGKILL');
    await Promise.all(processes.map((one) => one.exited));
    await smtp?.close();
    await db?.destroy();
    await pg?.stop();
    server?.remove();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it.runIf(runs)('leaves the mail as a row, and another server process on the same database sends it once SMTP is up', async () => {
    const staticDir = join(workDir, 'dist');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
    const smtpPort = await freePort();
    const start = async (name: string) => {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        REVERB_PORT: String(await freePort()),
        DATABASE_URL: databaseUrl,
        STORAGE_DIR: join(workDir, `storage-${name}`),
        STATIC_DIR: staticDir,
        APP_URL: 'http://console.test',
        APP_KEY: 'outbox-kill-test-key-0123456789abcdef',
        MAIL_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'console@testbed.test',
        CLUSTER: 'none',
        RATE_LIMITS: 'off',
        LOG_LEVEL: 'info',
      };
      delete env.NODE_ENV;
      delete env.TEST_POSTGRES_URL;
      const spawned = spawnLogged(process.execPath, ['--enable-source-maps', server!.main], { env });
      processes.push(spawned);
      await waitUntilAnswering(`http://127.0.0.1:${port}/readyz`, spawned.child, spawned.output);
      return { ...spawned, port };
    };

    // 1. The first server registers somebody while SMTP is down: the verification mail fails.
    const first = await start('first');
    const email = `killed.${process.pid}.${Date.now()}@example.org`;
    const registered = await fetch(`http://127.0.0.1:${first.port}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ firstname: 'Kim', lastname: 'Killed', email, password: 'correct horse battery staple', password_confirmation: 'correct horse battery staple' }),
    });
    expect(registered.status, first.output()).toBe(201);
    // Its kick tried once and recorded the failure (so the kill below lands on no claim in progress).
    const [attempted] = await eventually(async () => {
      const found = await db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).execute();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
      return found;
    }, { timeoutMs: 10_000 });
    expect(attempted.last_error).toMatch(/ECONNREFUSED/);
    expect(attempted.subject).toMatch(/^Verify your email address/);

    // 2. SIGKILL: no shutdown, nothing sent.
    first.child.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    expect((await db.selectFrom('mail_outbox').select('status').where('recipient', '=', email).executeTakeFirstOrThrow()).status).toBe('pending');

    // 3. SMTP comes up, and a second server on the same database sends the mail: its sweep
    //    (the leader's) retries it once the first backoff (10 s) has passed.
    smtp = await startMailbox({ port: smtpPort });
    const second = await start('second');
    const received = () => smtp!.messagesTo(email);
    await eventually(() => expect(received()).toHaveLength(1), { timeoutMs: 40_000, intervalMs: 200 }).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n--- second server:\n${second.output()}`);
    });
    expect(received()[0].subject).toMatch(/^Verify your email address/);
    expect(received()[0].text).toContain('http://console.test/email/verify/');
    const sent = await eventually(async () => {
      const row = await db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      return row;
    }, { timeoutMs: 10_000 });
    expect(sent.attempts).toBe(2);

    // Sent once: a sweep later (every 5 s), still one mail.
    await pause(5500);
    expect(received()).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect((await second.exited).code, second.output()).toBe(0);
  }, 120_000);
});
