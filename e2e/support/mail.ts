import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { e2eRuntimeDir } from '../../playwright.config';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

const mailDir = join(e2eRuntimeDir, 'mail');

function caughtMails(): CaughtMail[] {
  if (!existsSync(mailDir)) return [];
  return readdirSync(mailDir)
    .filter((file) => !file.startsWith('.')) // still being written (see serve.mjs)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(mailDir, file), 'utf8')) as CaughtMail);
}

/** Waits for the newest mail to `to` whose subject matches, as caught by the real SMTP server. */
export async function waitForMail(to: string, subject: RegExp, after = new Date(0)): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      () => {
        found = caughtMails()
          .filter((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject))
          .filter((mail) => new Date(mail.receivedAt) >= after)
          .at(-1);
        return Boolean(found);
      },
      { message: `a mail to ${to} with subject ${subject}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The first link in a mail's text part whose path starts with `pathPrefix`. */
export function linkIn(mail: CaughtMail, pathPrefix: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no ${pathPrefix} link in mail "${mail.subject}":\n${mail.text}`);
  return link;
}
