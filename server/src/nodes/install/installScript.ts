import { readFileSync } from 'node:fs';

// The node install script: install.sh next to this file, a POSIX sh script kept as a real file so
// it can be read, `sh -n`-checked and edited as shell. Rendering only fills in the console's URL
// and the node's secret, both validated and single-quoted, so nothing a user typed reaches it.

export const NODE_SECRET_PATTERN = /^tbn_[A-Za-z0-9_-]+$/;

let template: string | undefined;

function installTemplate(): string {
  template ??= readFileSync(new URL('./install.sh', import.meta.url), 'utf8');
  return template;
}

/** VALUE as one sh word: single-quoted, with embedded single quotes closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The console's base URL without a trailing slash, after checking it is an absolute http(s) URL
 * without credentials, whitespace or control characters (it ends up in shell and YAML text).
 */
export function normalizeAppUrl(appUrl: string): string {
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new Error(`Invalid APP_URL for the node install script: ${JSON.stringify(appUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`APP_URL must be an http(s) URL, got ${JSON.stringify(appUrl)}`);
  if (url.username || url.password) throw new Error('APP_URL must not hold credentials');
  if (/[\s\u0000-\u001f\u007f"'`\\$]/.test(appUrl)) throw new Error(`APP_URL holds characters not allowed in the install script: ${JSON.stringify(appUrl)}`);
  if (url.search || url.hash) throw new Error('APP_URL must not have a query or fragment');
  return appUrl.replace(/\/+$/, '');
}

export function assertNodeSecret(secret: string): void {
  if (!NODE_SECRET_PATTERN.test(secret)) throw new Error('Invalid node secret: it must match ^tbn_[A-Za-z0-9_-]+$');
}

/**
 * The install script. With a secret it is bound to that node; with null it is the generic
 * (machine-first) script that registers the machine and shows a code to enter in the console.
 */
export function renderInstallScript(input: { appUrl: string; secret: string | null }): string {
  const appUrl = normalizeAppUrl(input.appUrl);
  if (input.secret !== null) assertNodeSecret(input.secret);
  const values: Record<string, string> = {
    '@APP_URL@': shellQuote(appUrl),
    '@NODE_SECRET@': shellQuote(input.secret ?? ''),
  };
  return installTemplate().replace(/@APP_URL@|@NODE_SECRET@/g, (placeholder) => values[placeholder]!);
}
