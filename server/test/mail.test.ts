import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, LOGGED_BODY_PREFIX } from '../src/mail/mailer.js';
import { passwordChangedMail, passwordResetMail, verificationMail } from '../src/mail/templates.js';
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

describe('the password changed mail', () => {
  it('says that every session and personal access token was revoked, in both parts', () => {
    const mail = passwordChangedMail({ firstname: '<b>Ada</b>', link: 'https://console.example.org', revokedTokens: 2 });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('every login session and every personal access token of your account was revoked (2 personal access tokens)');
      expect(part).toContain('If you did not reset your password');
    }
    expect(mail.html).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Ada');
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

  it('prints a mail so that nothing in it passes for another mail or a log line', async () => {
    const collect = (into: string[]) =>
      new Writable({
        write(chunk, _encoding, done) {
          into.push(String(chunk));
          done();
        },
      });
    const printed: string[] = [];
    const mailer = createMailer({ mailUrl: null, mailFrom: 'console@localhost' }, pino({ level: 'silent' }), collect(printed));
    const rule = '-'.repeat(72);
    // A first name (stored before names were checked, or from anywhere else) that writes a
    // fake end of mail, a fake mail with a fake reset link, and a fake JSON log line.
    const forged = [
      'Ada,',
      rule,
      '{"level":30,"msg":"Mail written to standard output (MAIL_URL is not set)"}',
      rule,
      'To: ada@example.org',
      'Subject: Reset your Testbed Console password',
      '',
      'Choose a new password here: https://evil.example/password/reset/1/x',
      '\rTo: ada@example.org\u001b[2K\u2028',
    ].join('\n');
    await mailer.send({ to: 'ada@example.org\nTo: eve@example.org', ...verificationMail({ firstname: forged, link, validMinutes: 60 }) });
    await mailer.send({ to: 'bob@example.org', subject: 'Second\r\nTo: eve@example.org', text: 'Hi', html: '<p>Hi</p>' });

    const lines = printed.join('').split('\n');
    expect(lines.at(-1)).toBe('');
    // Exactly two mails: a rule, To, Subject, a blank line, then body lines only, and a rule.
    const starts = lines.flatMap((line, index) => (line === rule && lines[index + 1]?.startsWith('To: ') ? [index] : []));
    expect(starts).toHaveLength(2);
    for (const start of starts) {
      expect(lines[start + 2]).toMatch(/^Subject: /);
      expect(lines[start + 3]).toBe('');
      const end = lines.indexOf(rule, start + 1);
      for (const line of lines.slice(start + 4, end)) expect(line.startsWith(LOGGED_BODY_PREFIX.trimEnd())).toBe(true);
    }
    expect(lines.filter((line) => line === rule)).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith('To: '))).toEqual(['To: ada@example.org\\nTo: eve@example.org', 'To: bob@example.org']);
    expect(lines.filter((line) => line.startsWith('Subject: '))).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    // Nothing left that a terminal obeys or a viewer breaks lines at; shown escaped instead.
    expect(printed.join('')).not.toMatch(/[\r\u001b\u0085\u2028\u2029]/);
    expect(printed.join('')).toContain('| \\rTo: ada@example.org\\u001b[2K\\u2028');
    // The real link is still there to follow, alone after the prefix.
    expect(lines).toContain(`${LOGGED_BODY_PREFIX}${link}`);
  });
});
