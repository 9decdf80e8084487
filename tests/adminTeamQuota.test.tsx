import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { makeAdminTeamDetail, resetTeamAdminDb, teamAdminDb, teamAdminHandlers } from './mocks/teamAdmin';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

// Setting a team quota from the admin team page (PATCH /api/admin/teams/{id} {quota}): the four
// values (empty: no cap, sent as null) and the server's 422 under its field.

beforeEach(() => {
  resetTeamAdminDb();
  server.use(...teamAdminHandlers);
  db.user = makeUser({ admin: true });
});

describe('the team quota dialog', () => {
  it('sends the four values (empty as null) and shows the 422 under its field', async () => {
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const sent: unknown[] = [];
    const refusal = 'The team quota for cpu cannot be lower than the 16 its workspaces already hold.';
    server.use(
      http.patch('/api/admin/teams/:id', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ message: refusal, errors: { 'quota.cpu': [refusal] } }, { status: 422 });
      }),
    );
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Team quota' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Quota of Edge Computing Lab' });
    await user.type(field('CPUs'), '12');
    await user.type(field('Pods'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ quota: { cpu: '12', memory: null, pods: 100, storage: null }, allocation_core_hours: null });
    await waitFor(() => expect(errorUnder('CPUs')).toBe(refusal));
  });
});

describe('the team quota dialog with contributor credit', () => {
  it('starts from the caps as admins set them, not the caps with the credit in them', async () => {
    teamAdminDb.details.set(3, {
      ...makeAdminTeamDetail(),
      quota: { cpu: { hard: '14', allocated: '8', own: '8' }, memory: null, pods: { hard: '100', allocated: '50', own: '100' }, storage: null },
    });
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Team quota' }, { timeout: 10_000 }));
    await screen.findByRole('dialog', { name: 'Quota of Edge Computing Lab' });
    expect(field('CPUs')).toHaveValue('8');
    expect(field('Pods')).toHaveValue('100');
  });

  it('sets the monthly CPU allocation, and shows the server’s refusal under it', async () => {
    teamAdminDb.details.set(3, { ...makeAdminTeamDetail(), allocation_core_hours: 400 });
    const sent: Record<string, unknown>[] = [];
    const refusal = 'The allocation_core_hours field must be greater than 0.';
    server.use(
      http.patch('/api/admin/teams/:id', async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ message: refusal, errors: { allocation_core_hours: [refusal] } }, { status: 422 });
      }),
    );
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Team quota' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Quota of Edge Computing Lab' });
    expect(field('CPU core-hours per month')).toHaveValue('400');
    await user.clear(field('CPU core-hours per month'));
    await user.type(field('CPU core-hours per month'), '-5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.allocation_core_hours).toBe(-5);
    await waitFor(() => expect(errorUnder('CPU core-hours per month')).toBe(refusal));
  });
});
