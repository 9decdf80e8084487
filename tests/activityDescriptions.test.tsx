import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { activityDescriptionsEn, activityDescriptionsFr } from '../src/i18n/activityDescriptions';
import { LOCALE_KEY } from '../src/i18n/locale';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { renderApp } from './render';

// The audit trail is recorded in English; the console shows each known description in the
// reader's language.

/**
 * The descriptions the server writes: the quoted phrases on the lines that set an activity
 * entry's description (`description: …` or `description = …`), outside the migrations and the
 * server's own message catalogue (whose `description` is a field name).
 */
const recordedDescriptions = () => {
  const found = new Set<string>();
  const sources = import.meta.glob<string>('../server/src/**/*.ts', { query: '?raw', import: 'default', eager: true });
  for (const [file, text] of Object.entries(sources)) {
    if (file.includes('/db/migrations/') || file.includes('/i18n/')) continue;
    for (const line of text.split('\n')) {
      const start = line.search(/\bdescription(: | = )/);
      if (start < 0) continue;
      // The value only: up to the next property of the same object, or the statement's end.
      const value = line.slice(start).split(/,\s*[a-z_]+: |;|\s}/)[0]!;
      // A phrase that is the value, or a branch of a conditional (not a compared string).
      for (const [, phrase] of value.matchAll(/(?:description: |description = |\? |: )'([a-z][a-z ,]*)'/g)) found.add(phrase!);
    }
  }
  return found;
};

describe('activity descriptions', () => {
  it('has every description the server records in both languages', () => {
    const recorded = recordedDescriptions();
    // The scan finds the known ones (it would find none if the server's way of writing them changed).
    expect(recorded.size).toBeGreaterThan(60);
    const missing = [...recorded].filter((description) => !(description in activityDescriptionsEn) || !(description in activityDescriptionsFr));
    expect(missing).toEqual([]);
    // A request's decision is written from its status.
    for (const status of ['approved', 'denied', 'error']) expect(activityDescriptionsFr).toHaveProperty(`request ${status}`);
  });

  it('shows the audit log in French to a French reader, node status changes and agent reports included', async () => {
    // French from the start, as for a reader who chose it before (no switch after sign-in).
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ admin: true, locale: 'fr' });
    db.admin.activity = [
      { id: 1, causer: { id: 1, name: 'Ada Lovelace' }, description: 'failed login', subject: { id: 1, name: 'Ada Lovelace' }, subject_type: 'user', properties: { severity: 'warning' }, created_at: '2026-11-20T08:05:09.000Z' },
      { id: 2, causer: null, description: 'status changed from Running to Error', subject: { id: 3, name: 'pi-01' }, subject_type: 'node', properties: { severity: 'error' }, created_at: '2026-11-20T08:06:09.000Z' },
      { id: 3, causer: null, description: 'installation failed: no space left on device', subject: { id: 3, name: 'pi-01' }, subject_type: 'node', properties: { severity: 'error' }, created_at: '2026-11-20T08:07:09.000Z' },
      { id: 4, causer: null, description: 'something the console does not know', subject: { id: 1, name: 'Ada Lovelace' }, subject_type: 'user', properties: { severity: 'info' }, created_at: '2026-11-20T08:08:09.000Z' },
    ];
    renderApp({ path: '/admin/activity', loggedIn: true });
    const row = (await screen.findByText('échec de connexion', {}, { timeout: 15_000 })).closest('tr')!;
    expect(within(row).getByText('avertissement')).toBeInTheDocument();
    expect(screen.getByText('état passé de En fonctionnement à Erreur')).toBeInTheDocument();
    expect(screen.getByText('échec de l’installation : no space left on device')).toBeInTheDocument();
    // Unknown: as recorded.
    expect(screen.getByText('something the console does not know')).toBeInTheDocument();
    expect(screen.queryByText('failed login')).not.toBeInTheDocument();
  }, 30_000);
});
