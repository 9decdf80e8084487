import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from './utilities.js';

// A real SMTP server on loopback that keeps every mail it receives: the app sends through it
// exactly as it would through a relay (MAIL_URL), and tests read what arrived.

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

/** `port`: one chosen beforehand, so that MAIL_URL can name it while nothing listens yet (default: any free port). */
export async function startMailbox(options: { port?: number } = {}): Promise<Mailbox> {
  const messages: CaughtMail[] = [];
  const handedOut = new Set<CaughtMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
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
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP server has no port');

  const messagesTo = (to: string) => messages.filter((mail) => mail.to.includes(to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    messagesTo,
    async waitFor(to, { subject, timeoutMs = 5000 } = {}) {
      const mail = await eventually(
        () => messagesTo(to).find((candidate) => !handedOut.has(candidate) && (!subject || subject.test(candidate.subject))) ?? false,
        { timeoutMs, intervalMs: 20, what: `a mail to ${to}${subject ? ` matching ${subject}` : ''}` },
      );
      handedOut.add(mail);
      return mail;
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
