import type { Clock } from '../src/clock.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Database, User } from '../src/db/schema.js';
import { createMailer } from '../src/mail/mailer.js';
import { createUser as createUserRecord } from '../src/users/users.js';

// Test fixtures: a real database (a temporary SQLite file, or a schema of its own on the
// PostgreSQL server named by DATABASE_URL), a real SMTP server on loopback catching the
// app's mail, and the app built exactly as main.ts builds it.

export const TEST_APP_URL = 'http://console.test';
export const DEFAULT_PASSWORD = 'correct horse battery staple';

// ---------------------------------------------------------------------------------------
// Database

export interface TestDatabase {
  url: string;
  db: Kysely<Database>;
  drop(): Promise<void>;
}

const postgresUrl = () => (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined);

export const usingPostgres = () => postgresUrl() !== undefined;

/** An empty, migrated database that `drop()` removes again. */
export async function createTestDatabase(workDir: string, options: { onQuery?: (sql: string) => void } = {}): Promise<TestDatabase> {
  const pgUrl = postgresUrl();
  if (pgUrl) {
    const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = createDatabase(pgUrl);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    const db = createDatabase(pgUrl, { searchPath: schema, onQuery: options.onQuery });
    const drop = async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    };
    try {
      await migrate(db);
    } catch (error) {
      await drop();
      throw error;
    }
    return { url: pgUrl, db, drop };
  }
  const url = `sqlite:${join(workDir, 'test.sqlite')}`;
  const db = createDatabase(url, { onQuery: options.onQuery });
  await migrate(db);
  return { url, db, drop: () => db.destroy() };
}

// ---------------------------------------------------------------------------------------
// Mailbox

export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface Mailbox {
  /** smtp:// URL of the server, for MAIL_URL. */
  url: string;
  /** Every mail received so far, oldest first. */
  messages: CaughtMail[];
  /**
   * The next mail to `to` (and with a subject matching `subject`) that no earlier waitFor
   * returned; waits for it up to `timeoutMs`.
   */
  waitFor(to: string, options?: { subject?: RegExp; timeoutMs?: number }): Promise<CaughtMail>;
  messagesTo(to: string): CaughtMail[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: CaughtMail[] = [];
  const handedOut = new Set<CaughtMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP server has no port');

  const messagesTo = (to: string) => messages.filter((mail) => mail.to.includes(to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    messagesTo,
    async waitFor(to, { subject, timeoutMs = 5000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = messagesTo(to).find((candidate) => !handedOut.has(candidate) && (!subject || subject.test(candidate.subject)));
        if (mail) {
          handedOut.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`No mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text part whose path starts with `pathPrefix`. */
export function linkIn(mail: CaughtMail, pathPrefix: string): URL {
  const link = mail.text
    .match(/https?:\/\/\S+/g)
    ?.map((candidate) => new URL(candidate))
    .find((url) => url.pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`No ${pathPrefix} link in mail "${mail.subject}":\n${mail.text}`);
  return link;
}

// ---------------------------------------------------------------------------------------
// The app

export interface InjectOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestUser {
  user: User;
  password: string;
}

export interface SignedInUser extends TestUser {
  token: string;
}

export interface TestContext {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  mailbox: Mailbox;
  /** A request as the console makes it: Accept JSON, bearer token when given, JSON body. */
  inject(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD', url: string, options?: InjectOptions): Promise<LightMyRequestResponse>;
  /** A unique, valid registration payload; `overrides` replace fields. */
  registration(overrides?: Record<string, unknown>): Record<string, unknown>;
  register(overrides?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** POST /login; the session token, or an error naming the answer. */
  login(email: string, password?: string): Promise<string>;
  /** A user created directly in the database: verified and policy accepted unless told. */
  createUser(options?: Partial<{ email: string; password: string; firstname: string; lastname: string; verified: boolean; admin: boolean; enabled: boolean }>): Promise<TestUser>;
  /** A fully onboarded user, logged in. */
  signedInUser(options?: Parameters<TestContext['createUser']>[0]): Promise<SignedInUser>;
  /** Waits for background work (mail) to finish. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestContextOverrides {
  config?: Partial<Config>;
  logger?: FastifyBaseLogger;
  /** Sees every route as it is registered (buildApp's `onRoute`). */
  onRoute?: BuildAppOptions['onRoute'];
  /** Told of every query the database runs (server/test/queryCounts.test.ts). */
  onQuery?: (sql: string) => void;
  /** The app's clock (a movableClock to test what time decides); none = the system clock. */
  clock?: Clock;
}

let uniqueCounter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++uniqueCounter}@example.org`;

/** A minimal built console, so the static and SPA behaviour can be tested without a build. */
function writeFakeConsole(dir: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Testbed Console</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("console");\n');
}

export async function createTestContext(overrides: TestContextOverrides = {}): Promise<TestContext> {
  const workDir = mkdtempSync(join(tmpdir(), 'testbed-console-test-'));
  const staticDir = join(workDir, 'dist');
  writeFakeConsole(staticDir);

  const mailbox = await startMailbox();
  const database = await createTestDatabase(workDir, { onQuery: overrides.onQuery });
  const config: Config = {
    ...loadConfig(
      {
        STORAGE_DIR: join(workDir, 'storage'),
        APP_URL: TEST_APP_URL,
        APP_KEY: 'test-app-key-not-secret-0123456789',
        DATABASE_URL: database.url,
        MAIL_URL: mailbox.url,
        MAIL_FROM: 'console@testbed.test',
        STATIC_DIR: staticDir,
        // Each throttling test turns on the limit it exercises, with small numbers.
        RATE_LIMITS: 'off',
      },
      { envFile: null },
    ),
    ...overrides.config,
  };
  const logger = overrides.logger ?? pino({ level: 'silent' });
  const mailer = createMailer(config, logger);
  const app = await buildApp({ config, db: database.db, mailer, logger, onRoute: overrides.onRoute, clock: overrides.clock }).catch(async (error: unknown) => {
    mailer.close();
    await mailbox.close();
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  });

  const inject = injectorFor(app);

  const registration: TestContext['registration'] = (fields = {}) => ({
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: uniqueEmail('ada'),
    password: DEFAULT_PASSWORD,
    password_confirmation: DEFAULT_PASSWORD,
    ...fields,
  });

  const login: TestContext['login'] = async (email, password = DEFAULT_PASSWORD) => {
    const response = await inject('POST', '/login', { body: { email, password } });
    if (response.statusCode !== 200) throw new Error(`login as ${email}: ${response.statusCode} ${response.body}`);
    return response.json().token;
  };

  const createUser: TestContext['createUser'] = async (options = {}) => {
    const password = options.password ?? DEFAULT_PASSWORD;
    let user = await createUserRecord(database.db, {
      firstname: options.firstname ?? 'Grace',
      lastname: options.lastname ?? 'Hopper',
      email: options.email ?? uniqueEmail('grace'),
      password,
      admin: options.admin ?? false,
      verified: options.verified ?? true,
    });
    if (options.enabled === false) {
      user = await database.db.updateTable('users').set({ enabled: 0 }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
    }
    return { user, password };
  };

  return {
    app,
    db: database.db,
    config,
    mailbox,
    inject,
    registration,
    register: (fields) => inject('POST', '/register', { body: registration(fields) }),
    login,
    createUser,
    async signedInUser(options) {
      const created = await createUser(options);
      return { ...created, token: await login(created.user.email, created.password) };
    },
    idle: () => app.backgroundTasks.idle(),
    async close() {
      await app.close();
      mailer.close();
      await mailbox.close();
      await database.drop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** TestContext['inject'] for an app: requests as the console makes them. */
export function injectorFor(app: FastifyInstance): TestContext['inject'] {
  return (method, url, { token, body, headers } = {}) =>
    app.inject({
      method,
      url,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
}

