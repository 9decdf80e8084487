import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALE_KEY } from '../src/i18n/locale';
import type { UsageAnswer } from '../src/types';
import { makeTeam, makeWorkspace } from './fixtures.teams';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { emptyUsage, usageDb } from './mocks/usage';
import { renderApp } from './render';

// Usage people can see: the 30-day usage card on the workspace and team pages (with the numbers
// as a table too, and a word when accounting is behind or has not started), the team's quotas
// summed, and the home's workspaces near a limit.

const day = (date: string, cpu: number, memory: number) => ({ start: `${date}T00:00:00.000Z`, cpu_core_hours: cpu, memory_gib_hours: memory });

const usage = (overrides: Partial<UsageAnswer> = {}): UsageAnswer => ({
  ...emptyUsage(),
  accounted_until: '2026-11-27T11:59:00.000Z',
  series: [day('2026-11-25', 12, 24.5), day('2026-11-26', 0, 0), day('2026-11-27', 3.25, 6)],
  total: { cpu_core_hours: 15.25, memory_gib_hours: 30.5 },
  ...overrides,
});

const usageCard = () => screen.findByRole('region', { name: /^(Usage, last 30 days|Utilisation, 30 derniers jours)$/ });

/** A minute after the fixtures' last accounting pass (11:59), the day not over. */
const aMinuteAfterThePass = () => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T12:00:30.000Z') });

describe('the usage card', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the totals on the workspace page, and the days as a table on demand', async () => {
    // Nothing is behind.
    aMinuteAfterThePass();
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = usage();
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const card = await usageCard();
    expect(await within(card).findByTestId('usage-totals')).toHaveTextContent('15.3 CPU core-hours and 30.5 GiB-hours of memory in all.');
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(within(card).queryByText(/^Usage is known until/)).toBeNull();
    expect(within(card).getByRole('button', { name: 'CPU' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(card).getByRole('button', { name: 'Memory' }));
    expect(within(card).getByRole('button', { name: 'Memory' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(card).getByRole('button', { name: 'Show as a table' }));
    const rows = within(within(card).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['DayCPU core-hoursMemory GiB-hours', 'Nov 251224.5', 'Nov 2600', 'Nov 273.36']);
    // The table instead of the chart, not under it.
    expect(within(card).queryByRole('button', { name: 'Memory' })).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Show as a chart' }));
    expect(within(card).queryByRole('table')).toBeNull();
  });

  it('shows small amounts with their first digits instead of 0', async () => {
    aMinuteAfterThePass();
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = usage({
      series: [day('2026-11-26', 0, 0), day('2026-11-27', 0.0024, 0.0125)],
      total: { cpu_core_hours: 0.0024, memory_gib_hours: 0.0125 },
    });
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const card = await usageCard();
    expect(await within(card).findByTestId('usage-totals')).toHaveTextContent('0.0024 CPU core-hours and 0.013 GiB-hours of memory in all.');
    await user.click(within(card).getByRole('button', { name: 'Show as a table' }));
    const rows = within(within(card).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['DayCPU core-hoursMemory GiB-hours', 'Nov 2600', 'Nov 270.00240.013']);
  });

  it('gives each total its own singular or plural, in both languages', async () => {
    aMinuteAfterThePass();
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = usage({ total: { cpu_core_hours: 1, memory_gib_hours: 0.4 } });
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await within(await usageCard()).findByTestId('usage-totals')).toHaveTextContent('1 CPU core-hour and 0.4 GiB-hours of memory in all.');
  });

  it('gives each total its own number in French: under 2 is singular', async () => {
    aMinuteAfterThePass();
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ locale: 'fr' });
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = usage({ total: { cpu_core_hours: 0.4, memory_gib_hours: 30.5 } });
    renderApp({ path: '/workspaces/7', loggedIn: true });
    // The French messages load after the first render: the card's French name says they are in.
    const card = await screen.findByRole('region', { name: 'Utilisation, 30 derniers jours' }, { timeout: 10_000 });
    expect(await within(card).findByTestId('usage-totals')).toHaveTextContent('En tout, 0,4 heure-cœur de CPU et 30,5 Gio-heures de mémoire.');
  });

  it('says until when usage is known when accounting is behind, and when nothing is accounted yet', async () => {
    aMinuteAfterThePass();
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = usage({ accounted_until: '2026-11-26T08:00:00.000Z' });
    const first = renderApp({ path: '/workspaces/7', loggedIn: true });
    let card = await usageCard();
    expect(await within(card).findByText(/^Usage is known until .*2026.*: the cluster could not be read since\./)).toBeInTheDocument();
    first.unmount();

    usageDb.usage['workspace:7'] = emptyUsage();
    renderApp({ path: '/workspaces/7', loggedIn: true });
    card = await usageCard();
    expect(await within(card).findByText(/^No usage has been accounted yet/)).toBeInTheDocument();
  });

  it('offers to retry when usage cannot be loaded', async () => {
    db.workspaces = [makeWorkspace()];
    usageDb.usage['workspace:7'] = 'error';
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const card = await usageCard();
    expect(await within(card).findByText('Usage could not be loaded.')).toBeInTheDocument();
    usageDb.usage['workspace:7'] = usage();
    await user.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByTestId('usage-totals')).toBeInTheDocument();
  });

  it("says on the workspace page when the team's allocation is used up", async () => {
    db.workspaces = [makeWorkspace({ allocation_used_up_at: '2031-03-20T12:00:00.000Z' })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByTestId('allocation-used-up')).toHaveTextContent('The team has used all of its CPU allocation for this month');
  });

  it('is not shown to those outside the workspace', async () => {
    db.workspaces = [makeWorkspace({ role: null, member: false, can_manage: false })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Usage, last 30 days' })).toBeNull();
    expect(db.requests.some((request) => request.url.pathname.endsWith('/usage'))).toBe(false);
  });
});

describe('the team page', () => {
  it("sums its workspaces' quotas and shows the team's usage", async () => {
    db.teams = [makeTeam()];
    usageDb.teamQuota['3'] = {
      total: { pods: { hard: '60', used: '2' }, cpu: { hard: '10', used: '9500m' }, memory: { hard: '32Gi', used: '256Mi' }, storage: { hard: '200Gi', used: null } },
      workspaces: [
        { id: 7, name: 'vision', label: 'Vision', quota: { pods: { hard: '50', used: '1' }, cpu: { hard: '8', used: '8' }, memory: { hard: '16Gi', used: '128Mi' }, storage: { hard: '100Gi', used: null } } },
        { id: 8, name: 'audio', label: 'Audio', quota: { pods: { hard: '10', used: '1' }, cpu: { hard: '2', used: '1500m' }, memory: { hard: '16Gi', used: '128Mi' }, storage: { hard: '100Gi', used: '0' } } },
      ],
    };
    usageDb.usage['team:3'] = usage();
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    const quota = await screen.findByRole('region', { name: 'Workspaces’ quotas' });
    expect(within(quota).getByText('Summed over the team’s 2 workspaces')).toBeInTheDocument();
    expect(within(quota).getByTestId('quota-cpu')).toHaveTextContent('9500m / 10');
    expect(within(quota).getByRole('progressbar', { name: 'CPU (requests): 9500m / 10' })).toHaveAttribute('aria-valuenow', '95');
    expect(within(quota).getByTestId('quota-storage')).toHaveTextContent('usage unknown / 200Gi');
    const card = await usageCard();
    expect(await within(card).findByTestId('usage-totals')).toHaveTextContent('15.3 CPU core-hours');
  });

  it("shows the team's CPU allocation this month, and says what happens once it is used up", async () => {
    db.teams = [makeTeam()];
    usageDb.teamQuota['3'] = {
      total: { pods: { hard: '0', used: '0' }, cpu: { hard: '0', used: '0' }, memory: { hard: '0', used: '0' }, storage: { hard: '0', used: '0' } },
      workspaces: [],
      allocation: { core_hours: 100, used: 100, period_start: '2031-03-01T00:00:00.000Z', period_end: '2031-04-01T00:00:00.000Z', used_up_at: '2031-03-20T12:00:00.000Z' },
    };
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    const card = await screen.findByRole('region', { name: 'CPU allocation, March 2031' });
    expect(within(card).getByTestId('allocation-used')).toHaveTextContent('100 of 100 used');
    expect(within(card).getByRole('progressbar', { name: '100 of 100 used' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(card).getByText(/^Used up: the team’s workspaces accept no new pods until April 1, 2031/)).toBeInTheDocument();
    // No workspaces: no quota sums.
    expect(screen.queryByRole('region', { name: 'Workspaces’ quotas' })).toBeNull();
  });

  it('shows neither to those outside the team', async () => {
    db.teams = [makeTeam({ role: null, member: false, users: [] })];
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Workspaces’ quotas' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Usage, last 30 days' })).toBeNull();
  });
});

describe('the home', () => {
  const nearLimit = () => [
    {
      id: 7,
      name: 'vision',
      label: 'Vision',
      team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
      resources: [
        { resource: 'cpu' as const, hard: '8', used: '8', share: 1 },
        { resource: 'pods' as const, hard: '50', used: '41', share: 0.82 },
      ],
    },
  ];

  it("lists the person's workspaces near their limits, each a link to its page", async () => {
    db.user = makeUser({ workspaces: [{ id: 7, name: 'vision', label: 'Vision', role: 'member', team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' } }] });
    usageDb.nearLimit = nearLimit();
    renderApp({ path: '/', loggedIn: true });
    const section = await screen.findByRole('region', { name: 'Workspaces near their limits' });
    expect(within(section).getByRole('link', { name: 'Vision' })).toHaveAttribute('href', '/workspaces/7');
    expect(within(section).getByText('CPU (requests): 100% (8 / 8) · Pods: 82% (41 / 50)')).toBeInTheDocument();
  });

  it('shows nothing when none is near, and asks nothing of a person without workspaces', async () => {
    db.user = makeUser({ workspaces: [] });
    usageDb.nearLimit = nearLimit();
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Workspaces near their limits' })).toBeNull();
    expect(db.requests.some((request) => request.url.pathname === '/api/subnamespaces/near-limit')).toBe(false);
  });

  it('speaks French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ locale: 'fr', workspaces: [{ id: 7, name: 'vision', label: 'Vision', role: 'member', team: null }] });
    usageDb.nearLimit = nearLimit();
    renderApp({ path: '/', loggedIn: true });
    const section = await screen.findByRole('region', { name: 'Espaces de travail proches de leurs limites' });
    expect(within(section).getByText(/^CPU \(demandes\) : 100 %/)).toBeInTheDocument();
  });
});
