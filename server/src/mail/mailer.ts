import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';

// nodemailer is loaded only for SMTP (MAIL_URL set): some 10 MB a development server writing
// mails to its log does not need.
const require = createRequire(import.meta.url);

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when MAIL_URL is set (smtp:// without forced TLS, e.g. a relay on loopback; smtps://
 * with TLS and credentials in the URL), otherwise a mailer that writes each whole mail to the
 * log, so links can be followed on a machine without mail.
 */
export function createMailer(
  config: Pick<Config, 'mailUrl' | 'mailFrom'>,
  logger: FastifyBaseLogger,
  mailOutput: NodeJS.WritableStream = process.stdout,
): Mailer {
  if (!config.mailUrl) return logMailer(logger, mailOutput);
  // Timeouts well under the outbox's 60 s claim on a mail (outbox.ts), so that a send never
  // outlives its claim and another replica never sends the same mail meanwhile. (Options in
  // MAIL_URL's query string, e.g. ?socketTimeout=…, still win.)
  const nodemailer = require('nodemailer') as typeof import('nodemailer');
  const transport = nodemailer.createTransport(
    { url: config.mailUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
    { from: config.mailFrom },
  );
  return {
    async send(message) {
      // The address goes in as one address object: the email rule allows commas, and a string
      // would be parsed as a list of recipients.
      await transport.sendMail({ ...message, to: { name: '', address: message.to } });
    },
    close() {
      transport.close();
    },
  };
}

function logMailer(logger: FastifyBaseLogger, mailOutput: NodeJS.WritableStream): Mailer {
  return {
    async send(message) {
      logger.info({ mail: { to: message.to, subject: message.subject } }, 'Mail written to standard output (MAIL_URL is not set)');
      // The text goes out as plain lines, not inside a JSON log entry, so that a person running
      // the console locally can read the mail and follow its links.
      mailOutput.write(formatLoggedMail(message));
    },
    close() {},
  };
}

const MAIL_RULE = '-'.repeat(72);
/** Prefix of every line of a logged mail's body. */
export const LOGGED_BODY_PREFIX = '| ';

// Control characters (Unicode Cc: CR, ESC, NEL…) and the Unicode line and paragraph
// separators: what a terminal or a log viewer may take for a line break, or obey (ESC
// sequences move the cursor and erase lines).
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/gu;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const visible = (text: string) =>
  text.replace(UNPRINTABLE, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A mail as the log mailer prints it. Names and other values people chose end up in mails,
 * and mails here end up in the server's output, so nothing in them may pass for another mail
 * or a log line: headers are escaped onto one line each, and every line of the body (split at
 * LF only; any other control character is shown escaped) starts with LOGGED_BODY_PREFIX, which
 * neither the rule around a mail, a header nor a JSON log line does.
 */
export function formatLoggedMail(message: Pick<MailMessage, 'to' | 'subject' | 'text'>): string {
  const body = message.text.split('\n').map((line) => `${LOGGED_BODY_PREFIX}${visible(line)}`.trimEnd());
  return [MAIL_RULE, `To: ${visible(message.to)}`, `Subject: ${visible(message.subject)}`, '', ...body, MAIL_RULE, ''].join('\n');
}
