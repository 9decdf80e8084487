import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminLifecycleHandlers, lifecycleDb, resetLifecycleDb } from './mocks/adminLifecycle';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

// The platform admins' lifecycle pages: /admin/settings (GET/PATCH /api/admin/settings, each
// setting with its default, the server's 422 under its field, "never" for the retention) and
// /admin/lifecycle, "What ends next" (GET /api/admin/lifecycle/preview?until=, grouped by what
// happens, each item linking to its workspace, team or person).

const FIRST_RENDER = { timeout: 10_000 };

beforeEach(() => {
  resetLifecycleDb();
  server.use(...adminLifecycleHandlers);
  db.user = makeUser({ admin: true });
});

describe('/admin/settings', () => {
  it('shows each setting with its default, saves the changes, and "never" for the retention', async () => {
    lifecycleDb.settings.warning_days = 21;
    const { user } = renderApp({ path: '/admin/settings', loggedIn: true });
    const warning = await screen.findByRole('spinbutton', { name: 'First warning' }, FIRST_RENDER);
    expect(warning).toHaveValue(21);
    expect(screen.getByText(/Before a workspace or team ends\. Default: 30\./)).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'Workspace lifetime' })).toHaveValue(180);
    // Reached from the menu.
    expect(screen.getByRole('menuitem', { name: 'Lifecycle settings' })).toHaveAttribute('href', '/admin/settings');

    fireEvent.change(screen.getByRole('spinbutton', { name: 'Team review period' }), { target: { value: '400' } });
    expect(screen.getByRole('spinbutton', { name: 'Credit for contributed CPU' })).toHaveValue(1.5);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Credit for contributed memory' }), { target: { value: '0' } });
    await user.click(screen.getByRole('checkbox', { name: 'Never delete expired workspaces' }));
    expect(screen.getByRole('spinbutton', { name: 'Keep expired workspaces' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/admin/settings')[0]!.body).toEqual({
      workspace_lifetime_days: 180,
      team_review_days: 400,
      warning_days: 21,
      last_warning_hours: 72,
      retention_days: null,
      retention_notice_days: 7,
      membership_warning_days: 7,
      policy_validity_days: 365,
      credit_cpu_factor: 1.5,
      credit_memory_factor: 0,
    });
    expect(lifecycleDb.settings).toMatchObject({ team_review_days: 400, retention_days: null, credit_memory_factor: 0 });
  });

  it('shows the server’s 422 under its field and keeps what was typed; an empty field is refused before sending', async () => {
    const { user } = renderApp({ path: '/admin/settings', loggedIn: true });
    const last = await screen.findByRole('spinbutton', { name: 'Last warning' }, FIRST_RENDER);
    fireEvent.change(last, { target: { value: '1000' } });
    lifecycleDb.refuse = { last_warning_hours: ['The last warning must come closer to the end than the first one.'] };
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The last warning must come closer to the end than the first one.')).toBeInTheDocument();
    expect(last).toHaveAttribute('aria-invalid', 'true');
    expect(last).toHaveValue(1000);
    expect(lifecycleDb.settings.last_warning_hours).toBe(72);

    fireEvent.change(screen.getByRole('spinbutton', { name: 'Workspace lifetime' }), { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give a value.')).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/admin/settings')).toHaveLength(1);
  });
});

describe('/admin/lifecycle: What ends next', () => {
  it('shows what ends until a date (30 days ahead unless changed), by what happens, each linking to its page', async () => {
    lifecycleDb.preview = {
      until: '2026-12-22T10:15:00.000Z',
      warnings: [
        { kind: 'workspace_warning', subject_type: 'workspace', subject_id: 7, label: 'Vision', team: 'Edge Lab', date: '2026-12-10T12:00:00.000Z' },
        { kind: 'team_last_warning', subject_type: 'team', subject_id: 3, label: 'Radio Lab', team: null, date: '2026-11-24T12:00:00.000Z' },
      ],
      suspensions: [{ workspace_id: 8, label: 'Radio', team_id: 3, date: '2026-11-30T12:00:00.000Z' }],
      deletions: [],
      removals: [{ team_id: 3, team: 'Radio Lab', user_id: 42, name: 'Ada Lovelace', date: '2026-12-01T12:00:00.000Z' }],
    };
    const { user } = renderApp({ path: '/admin/lifecycle', loggedIn: true });
    const warned = await screen.findByRole('region', { name: 'Warned (2)' }, FIRST_RENDER);
    expect(within(warned).getByRole('link', { name: 'Vision' })).toHaveAttribute('href', '/admin/workspaces/7');
    expect(warned).toHaveTextContent('Vision (Edge Lab)First warning · on 10/12/2026');
    expect(within(warned).getByRole('link', { name: 'Radio Lab' })).toHaveAttribute('href', '/admin/teams/3');
    expect(warned).toHaveTextContent('Last review warning');
    const suspended = screen.getByRole('region', { name: 'Suspended (1)' });
    expect(within(suspended).getByRole('link', { name: 'Radio' })).toHaveAttribute('href', '/admin/workspaces/8');
    expect(within(suspended).getByRole('link', { name: 'its team' })).toHaveAttribute('href', '/admin/teams/3');
    expect(within(screen.getByRole('region', { name: 'Deleted (0)' })).getByText('Nothing.')).toBeInTheDocument();
    const removed = screen.getByRole('region', { name: 'Removed from their team (1)' });
    expect(within(removed).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute('href', '/admin/users/42');
    expect(within(removed).getByRole('link', { name: 'Radio Lab' })).toHaveAttribute('href', '/admin/teams/3');
    expect(screen.getByRole('menuitem', { name: 'What ends next' })).toHaveAttribute('href', '/admin/lifecycle');

    // 30 days ahead, to the end of that day.
    const until = screen.getByLabelText('Until');
    const ahead = new Date(Date.now() + 30 * 86_400_000);
    const day = `${ahead.getFullYear()}-${String(ahead.getMonth() + 1).padStart(2, '0')}-${String(ahead.getDate()).padStart(2, '0')}`;
    expect(until).toHaveValue(day);
    expect(new Date(requestsTo('GET', '/api/admin/lifecycle/preview')[0]!.url.searchParams.get('until')!).toISOString()).toBe(new Date(`${day}T23:59:59`).toISOString());

    // Another date asks again; one in the past is the server's 422, under the field.
    fireEvent.change(until, { target: { value: '2099-01-31' } });
    await waitFor(() => expect(requestsTo('GET', '/api/admin/lifecycle/preview').at(-1)!.url.searchParams.get('until')).toBe(new Date('2099-01-31T23:59:59').toISOString()));
    lifecycleDb.now = '2026-11-22T10:15:00.000Z';
    fireEvent.change(until, { target: { value: '2001-01-31' } });
    expect(await screen.findByText('The until date must be in the future.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Warned/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Lifecycle settings.' }));
    expect(await screen.findByRole('spinbutton', { name: 'First warning' })).toBeInTheDocument();
  });
});
