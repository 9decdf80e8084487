import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

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
  const transport = nodemailer.createTransport(config.mailUrl, { from: config.mailFrom });
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
      const rule = '-'.repeat(72);
      mailOutput.write(`${rule}\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n${rule}\n`);
    },
    close() {},
  };
}
