import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOCALE_KEY } from '../src/i18n/locale';
import { makeWorkspace } from './fixtures.teams';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { renderApp } from './render';

// The workspace page's quota card: each resource as used / hard with a bar, from the API's
// `quota` (the cluster's status.used); usage the cluster could not give reads "unknown", with no
// bar and no made-up zero.

const QUOTA = {
  pods: { hard: '50', used: '3' },
  cpu: { hard: '8', used: '7600m' },
  memory: { hard: '16Gi', used: '384Mi' },
  storage: { hard: '100Gi', used: '0' },
};

const quotaCard = async () => screen.findByRole('region', { name: /^(Quota)$/ });

describe('workspace quota', () => {
  it('shows each resource as used / hard with a bar', async () => {
    db.workspaces = [makeWorkspace({ quota: QUOTA })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    const card = await quotaCard();
    expect(within(card).getByText('Pods')).toBeInTheDocument();
    expect(within(card).getByTestId('quota-pods')).toHaveTextContent('3 / 50');
    expect(within(card).getByTestId('quota-cpu')).toHaveTextContent('7600m / 8');
    expect(within(card).getByTestId('quota-memory')).toHaveTextContent('384Mi / 16Gi');
    const bars = within(card).getAllByRole('progressbar');
    expect(bars).toHaveLength(4);
    expect(within(card).getByRole('progressbar', { name: 'Pods: 3 / 50' })).toHaveAttribute('aria-valuenow', '6');
    expect(within(card).getByRole('progressbar', { name: 'CPU (requests): 7600m / 8' })).toHaveAttribute('aria-valuenow', '95');
    expect(within(card).getByRole('progressbar', { name: 'Memory (requests): 384Mi / 16Gi' })).toHaveAttribute('aria-valuenow', '2');
  });

  it('says unknown, without a bar, when the cluster could not say', async () => {
    const unknown = Object.fromEntries(Object.entries(QUOTA).map(([name, entry]) => [name, { hard: entry.hard, used: null }]));
    db.workspaces = [makeWorkspace({ quota: unknown })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    const card = await quotaCard();
    expect(within(card).getByTestId('quota-pods')).toHaveTextContent('usage unknown / 50');
    expect(within(card).queryAllByRole('progressbar')).toHaveLength(0);
  });

  it('speaks French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ locale: 'fr' });
    db.workspaces = [makeWorkspace({ quota: { ...QUOTA, pods: { hard: '50', used: null } } })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText('Mémoire (demandes)')).toBeInTheDocument();
    const card = await quotaCard();
    expect(within(card).getByTestId('quota-pods')).toHaveTextContent('utilisation inconnue sur 50');
    expect(within(card).getByTestId('quota-memory')).toHaveTextContent('384Mi sur 16Gi');
  });
});
