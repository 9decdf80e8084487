import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/mail/mailer.js';
import { passwordResetMail, verificationMail } from '../src/mail/templates.js';
import { type Mailbox, startMailbox } from './helpers.js';

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(() => mailbox.close());

const link = 'https://console.example.org/email/verify/1/abc?expires=1&signature=def';

describe('mail templates', () => {
  it.each([
    ['verification', verificationMail],
    ['password reset', passwordResetMail],
  ])('the %s mail has the link in both parts and escapes the name in HTML', (_name, template) => {
    const mail = template({ firstname: '<script>alert("x")</script>', link, validMinutes: 60 });
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('60 minutes');
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
  });
});

describe('createMailer', () => {
  it('sends over SMTP when MAIL_URL is set', async () => {
    const mailer = createMailer({ mailUrl: mailbox.url, mailFrom: 'Testbed <console@testbed.test>' }, pino({ level: 'silent' }));
    try {
      await mailer.send({ to: 'ada@example.org', subject: 'Hello', text: 'plain text', html: '<p>html</p>' });
    } finally {
      mailer.close();
    }
    const mail = await mailbox.waitFor('ada@example.org', { subject: /Hello/ });
    expect(mail).toMatchObject({ from: 'console@testbed.test', to: ['ada@example.org'], text: 'plain text', html: '<p>html</p>' });
  });

  it('delivers to the one address given even when it contains a comma', async () => {
    const mailer = createMailer({ mailUrl: mailbox.url, mailFrom: 'console@testbed.test' }, pino({ level: 'silent' }));
    try {
      await mailer.send({ to: 'victim@example.org,attacker@example.org', subject: 'Comma', text: 't', html: 'h' }).catch(() => undefined);
    } finally {
      mailer.close();
    }
    expect(mailbox.messagesTo('attacker@example.org')).toHaveLength(0);
    expect(mailbox.messagesTo('victim@example.org')).toHaveLength(0);
  });

  it('writes the whole mail, link included, as readable text when MAIL_URL is not set', async () => {
    const collect = (into: string[]) =>
      new Writable({
        write(chunk, _encoding, done) {
          into.push(String(chunk));
          done();
        },
      });
    const logLines: string[] = [];
    const printed: string[] = [];
    const mailer = createMailer({ mailUrl: null, mailFrom: 'console@localhost' }, pino(collect(logLines)), collect(printed));
    await mailer.send({ to: 'ada@example.org', ...verificationMail({ firstname: 'Ada', link, validMinutes: 60 }) });
    const entry = JSON.parse(logLines.join(''));
    expect(entry.mail).toEqual({ to: 'ada@example.org', subject: expect.stringMatching(/verify/i) });
    const text = printed.join('');
    expect(text).toContain('To: ada@example.org');
    expect(text).toContain(link);
    expect(text).toContain('Hello Ada,');
  });
});
