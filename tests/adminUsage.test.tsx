import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { usageDb } from './mocks/usage';
import { renderApp } from './render';

// /admin/usage: the platform's usage per team, workspace or person over a range, totalled and
// biggest first, the server's 422 under the field, and the CSV of the same query.

beforeEach(() => {
  db.user = makeUser({ admin: true });
  usageDb.admin = [
    { id: 3, name: 'edgelab', start: '2026-10-01T00:00:00.000Z', cpu_core_hours: 10, memory_gib_hours: 20 },
    { id: 4, name: 'vision', start: '2026-11-01T00:00:00.000Z', cpu_core_hours: 40.25, memory_gib_hours: 8 },
    { id: 3, name: 'edgelab', start: '2026-11-01T00:00:00.000Z', cpu_core_hours: 5, memory_gib_hours: 1 },
    { id: 9, name: null, start: '2026-11-01T00:00:00.000Z', cpu_core_hours: 1, memory_gib_hours: 1 },
  ];
});

describe('/admin/usage', () => {
  it('totals the rows over the range, biggest first, and asks the server per team by default', async () => {
    renderApp({ path: '/admin/usage', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Usage', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['TeamCPU core-hoursMemory GiB-hours', 'vision40.38', 'edgelab1521', 'Deleted (#9)11']);
    const asked = db.requests.find((request) => request.url.pathname === '/api/admin/usage')!;
    expect(asked.url.searchParams.get('group_by')).toBe('team');
    expect(asked.url.searchParams.get('granularity')).toBe('month');
    expect(screen.getByText(/^Usage accounted until /)).toBeInTheDocument();
  });

  it('shows the server’s message under the field it refuses', async () => {
    renderApp({ path: '/admin/usage', loggedIn: true });
    await screen.findByRole('table');
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2020-01-01' } });
    expect(await screen.findByText('The to field must be a date after or equal to from.')).toBeInTheDocument();
  });

  it('downloads the CSV of the same query', async () => {
    const { user } = renderApp({ path: '/admin/usage', loggedIn: true });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await screen.findByRole('table');
    expect(db.requests.some((request) => request.url.pathname === '/api/admin/usage.csv' && request.url.searchParams.get('group_by') === 'team')).toBe(true);
  });
});
