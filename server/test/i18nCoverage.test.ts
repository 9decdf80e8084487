import { describe, expect, it } from 'vitest';
import { translateMessage } from '../src/i18n/messages.js';
import { serverMessages } from './i18nMessageSites.js';

// French: every message the server can answer with has its French. The sites are read from the
// server's source (i18nMessageSites.ts), so a new `new HttpError(…, 'text')`, field error, zod
// message or message constant without a catalogue line (server/src/i18n/catalogue/) fails here.

/**
 * English on purpose, with why. Anything else untranslated fails the test.
 */
const DELIBERATELY_ENGLISH: Record<string, string> = {
  // The realtime socket's pusher:error texts and subscription ends: pusher-js reads their codes and
  // reasons, and the console shows its own translated words for them (src/realtime/subscriptionEnded.ts).
  'Messages are limited to :max_bytes bytes.': 'realtime protocol error (pusher code 4009)',
  'Binary messages are not accepted.': 'realtime protocol error',
  'Invalid message format.': 'realtime protocol error',
  'Your session has ended. Sign in again.': 'realtime subscription end: the console shows app.realtime.session_ended',
  'You no longer have access to this workspace.': 'realtime subscription end: the console shows its own text',
  'You no longer have access to this channel.': 'realtime subscription end: the console shows its own text',
  // An annotation on a workspace's ResourceQuota, read with kubectl describe beside the cluster's
  // own messages, which are English; people are told in their language by mail and on the page.
  "The team used all of this month's CPU allocation. New pods are refused until next month or until a platform admin raises the allocation: ask for more on the team's page in the console.":
    "cluster annotation (kubernetesQuota.ts): kubectl's output is English",
};

describe('the server messages have their French', () => {
  const sites = serverMessages();

  it('finds the server messages in the source (the extractor still works)', () => {
    expect(sites.length).toBeGreaterThan(150);
    const templates = sites.map((site) => site.template);
    // One of each kind of site: HttpError, fieldError, a zod message, a message constant, a bulk result.
    expect(templates).toContain('These credentials do not match our records.');
    expect(templates).toContain('The selected workspace_ids is invalid.');
    expect(templates).toContain('The ipv4 field must be a valid IPv4 address.');
    expect(templates).toContain('You cannot disable your own account.');
    expect(templates).toContain('The code is unknown or has expired.');
  });

  it('every message translates (or is deliberately English, with a reason)', () => {
    const untranslated = sites
      .filter((site) => !(site.template in DELIBERATELY_ENGLISH))
      .filter((site) => translateMessage(site.sample, 'fr') === site.sample)
      .map((site) => `${site.where}\t${site.template}`);
    expect(untranslated).toEqual([]);
  });

  it('leaves no placeholder or English field name unfilled in the French', () => {
    const broken = sites
      .map((site) => ({ site, french: translateMessage(site.sample, 'fr') }))
      .filter(({ french }) => /(^|\s):[a-z_]+/.test(french))
      .map(({ site, french }) => `${site.where}\t${french}`);
    expect(broken).toEqual([]);
  });

  it('the allow-list names only messages that still exist', () => {
    const templates = new Set(sites.map((site) => site.template));
    expect(Object.keys(DELIBERATELY_ENGLISH).filter((template) => !templates.has(template))).toEqual([]);
  });
});
