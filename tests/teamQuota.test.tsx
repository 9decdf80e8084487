import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeTeam, makeWorkspace } from './fixtures.teams';
import { db } from './mocks/db';
import { server } from './mocks/server';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

// Asking for more quota from the workspace page (POST /api/requests/workspaces/{id}/quota): the
// button for those who may ask, the dialog sending only the values filled in, the reason
// required, and the server's 422 (what the team has left) under its field.

const FIRST_RENDER = { timeout: 10_000 };
const URL = '/api/requests/workspaces/7/quota';

describe('Ask for more quota', () => {
  it('sends only the values filled in with the reason, and says the request was sent', async () => {
    db.workspaces = [makeWorkspace({ role: 'member', can_manage: false })];
    const sent: unknown[] = [];
    server.use(
      http.post(URL, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ id: 40, type: 'QuotaIncrease', status: 'Pending', data: {}, object: { id: 7, name: 'vision' } }, { status: 201 });
      }),
    );
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Ask for more quota' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Ask for more quota for Vision' });

    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(errorUnder('Reason')).toBe('Required');
    expect(errorUnder('CPUs')).toBe('Give at least one value.');
    expect(sent).toHaveLength(0);

    await user.type(field('CPUs'), '16');
    await user.type(within(dialog).getByLabelText('Pods'), '80');
    await user.type(field('Reason'), 'Bigger training runs');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ quota: { cpu: '16', pods: 80 }, reason: 'Bigger training runs' });
    expect(await screen.findByText('Your request for more quota for Vision was sent. You will be told of the decision.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server’s 422 under its field', async () => {
    db.workspaces = [makeWorkspace()];
    const refusal = 'The quota.memory field must not be lower than the current 16Gi.';
    server.use(http.post(URL, () => HttpResponse.json({ message: refusal, errors: { 'quota.memory': [refusal] } }, { status: 422 }), { once: true }));
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Ask for more quota' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog');
    await user.type(field('Memory'), '8Gi');
    await user.type(field('Reason'), 'Data');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(errorUnder('Memory')).toBe(refusal));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('is not offered to someone outside the workspace', async () => {
    db.workspaces = [makeWorkspace({ role: null, member: false, can_manage: false })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Vision' }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask for more quota' })).not.toBeInTheDocument();
  });
});

describe('the team quota on the team page', () => {
  it('shows allocated / total per resource and what contributed nodes earned', async () => {
    db.teams = [
      makeTeam({
        quota: { cpu: { hard: '22', allocated: '16' }, memory: null, pods: { hard: '200', allocated: '100' }, storage: null },
        credit: { nodes: 2, cpu: '6', memory: '13Gi' },
      }),
    ];
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    const section = await screen.findByRole('region', { name: 'Team quota' }, FIRST_RENDER);
    expect(within(section).getByTestId('team-quota-cpu')).toHaveTextContent('16 allocated of 22');
    expect(within(section).getByTestId('team-quota-pods')).toHaveTextContent('100 allocated of 200');
    expect(within(section).queryByTestId('team-quota-memory')).not.toBeInTheDocument();
    expect(within(section).getByText('Includes 6 CPUs and 13Gi of memory earned from 2 contributed nodes')).toBeInTheDocument();
  });

  it('shows nothing without a team quota', async () => {
    db.teams = [makeTeam({ quota: null })];
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Team quota' })).not.toBeInTheDocument();
  });
});
