#!/usr/bin/env node
// Starts what the browser tests run against: a real SMTP server on loopback that writes every
// mail it receives as JSON into E2E_RUNTIME_DIR/mail/, and `npm start` (scripts/start.mjs) on
// a fresh storage directory pointing its mailer at that SMTP server.
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

const runtimeDir = process.env.E2E_RUNTIME_DIR ?? join(process.cwd(), 'e2e', 'artifacts', 'runtime');
const port = process.env.E2E_PORT ?? '8123';
rmSync(runtimeDir, { recursive: true, force: true });
const mailDir = join(runtimeDir, 'mail');
mkdirSync(mailDir, { recursive: true });

// The browser tests always start from a fresh SQLite database in runtimeDir, even when the
// shell that runs them points DATABASE_URL at PostgreSQL for the server tests.
function envWithoutDatabaseUrl() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
}

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        received += 1;
        const record = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
          receivedAt: new Date().toISOString(),
        };
        // Written under a hidden name, then renamed: a test polling the folder while another
        // worker's mail arrives must never read half a file.
        const name = `${Date.now()}-${String(received).padStart(4, '0')}.json`;
        writeFileSync(join(mailDir, `.${name}`), JSON.stringify(record, null, 2));
        renameSync(join(mailDir, `.${name}`), join(mailDir, name));
        callback();
      })
      .catch(callback);
  },
});

// A real OpenID provider for institutional sign-in (OpenID Connect): the one `npm run oidc:dev` starts
// (oidc-provider with a page to choose an account or refuse), on the port after the realtime
// one (E2E_OIDC_PORT to choose another), and the console configured with it.
const oidcPort = process.env.E2E_OIDC_PORT ?? String(Number(port) + 2);
const oidcProvider = spawn(process.execPath, ['--import', 'tsx', 'scripts/oidc-dev.ts'], {
  stdio: 'ignore',
  env: { ...process.env, OIDC_DEV_PORT: oidcPort, APP_URL: `http://127.0.0.1:${port}` },
});

smtp.listen(0, '127.0.0.1', () => {
  const smtpPort = smtp.server.address().port;
  const app = spawn(process.execPath, ['scripts/start.mjs'], {
    stdio: 'inherit',
    env: {
      ...envWithoutDatabaseUrl(),
      PORT: port,
      // The realtime (Pusher protocol) server gets the next port, not the default 8080 that a
      // console running on this machine may already hold.
      REVERB_PORT: String(Number(port) + 1),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      STORAGE_DIR: join(runtimeDir, 'storage'),
      MAIL_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'console@testbed.test',
      OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
      OIDC_CLIENT_ID: 'testbed-console',
      OIDC_CLIENT_SECRET: 'testbed-console-secret-0123456789',
      OIDC_NAME: 'Test University',
      // Every answer of the browser tests is also checked against its schema.
      CHECK_ANSWERS: 'on',
    },
  });
  const stop = (signal) => {
    app.kill(signal);
    oidcProvider.kill(signal);
    smtp.close();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  app.on('exit', (code) => {
    oidcProvider.kill('SIGTERM');
    smtp.close();
    process.exit(code ?? 0);
  });
});
