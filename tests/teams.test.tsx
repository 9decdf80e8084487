import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

const fillTeamForm = async (user: ReturnType<typeof renderApp>['user'], overrides: Record<string, string> = {}) => {
  const values: Record<string, string> = {
    'Full name': 'Edge Computing Lab',
    'Short name': 'Edge Lab',
    Affiliation: 'University of X',
    Country: 'FR',
    Website: 'https://edgelab.example.org',
    'Why does the testbed need this team?': 'Teaching edge computing',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) if (value) await user.type(field(label), value);
  await user.click(screen.getByRole('radio', { name: 'Research' }));
};

describe('team registration', () => {
  it('shows the internal name derived live from the short name', async () => {
    const { user } = renderApp({ path: '/team/registration', loggedIn: true });
    await user.type(await findField('Short name'), 'Edge Lab-2!');
    expect(screen.getByTestId('team-name-preview')).toHaveTextContent('Internal name: edgelab2');
  });

  it("requires the fields and says 'Invalid URL' for a non-http(s) address; nothing is sent", async () => {
    const { user } = renderApp({ path: '/team/registration', loggedIn: true });
    await user.type(await findField('Website'), 'ftp://example.org');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(errorUnder('Website')).toBe('Invalid URL'));
    expect(errorUnder('Full name')).toBe('Required');
    expect(errorUnder('Short name')).toBe('Required');
    expect(requestsTo('POST', '/api/requests/teams')).toHaveLength(0);
  });

  it('sends the form with the derived name and confirms the request went to the platform admins', async () => {
    const { user } = renderApp({ path: '/team/registration', loggedIn: true });
    await findField('Full name');
    await fillTeamForm(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/was sent to the platform admins/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your requests' })).toHaveAttribute('href', '/profile');
    expect(requestsTo('POST', '/api/requests/teams')[0]!.body).toEqual({
      fullname: 'Edge Computing Lab',
      shortname: 'Edge Lab',
      affiliation: 'University of X',
      country: 'FR',
      url: 'https://edgelab.example.org',
      joining_reason: 'Teaching edge computing',
      joining_category: 'Research',
      name: 'edgelab',
    });
  });

  it('shows a server 422 under the field', async () => {
    db.teams = [makeTeam()];
    const { user } = renderApp({ path: '/team/registration', loggedIn: true });
    await findField('Full name');
    await fillTeamForm(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(errorUnder('Short name')).toBe('A team with this short name already exists.'));
  });

  it("shows the fallback 'Error creating team' when the server gives no message", async () => {
    server.use(http.post('/api/requests/teams', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp({ path: '/team/registration', loggedIn: true });
    await findField('Full name');
    await fillTeamForm(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Error creating team')).toBeInTheDocument();
  });
});

describe('join a team', () => {
  it('searches the teams on the server as one types, marks the ones already joined, and sends PATCH /api/requests/teams', async () => {
    db.teams = [
      makeTeam({ id: 3, member: false, role: null, users: undefined }),
      makeTeam({ id: 4, name: 'radio', fullname: 'Radio Lab', shortname: 'RL', member: false, role: null }),
    ];
    db.user = makeUser({ teams: [{ id: 4, name: 'radio', role: 'member' }] });
    const { user } = renderApp({ path: '/team/join', loggedIn: true });
    const picker = await screen.findByRole('combobox', { name: 'Team' });
    // Nothing is listed (nor fetched) before one types: there may be thousands of teams.
    expect(requestsTo('GET', '/api/tenants')).toHaveLength(0);
    await user.type(picker, 'lab');
    expect(await screen.findByRole('option', { name: 'Radio Lab (RL) (already a member)' })).toHaveAttribute('aria-disabled', 'true');
    expect(requestsTo('GET', '/api/tenants').at(-1)!.url.searchParams.get('q')).toBe('lab');
    await user.click(screen.getByRole('option', { name: 'Edge Computing Lab (Edge Lab)' }));
    await user.type(field('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/Your request to join Edge Computing Lab/)).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/requests/teams')[0]!.body).toEqual({ team_id: 3, message: 'Hello' });
  });

  it("shows 'Error joining a team' when the server gives no message", async () => {
    db.teams = [makeTeam({ member: false, role: null })];
    server.use(http.patch('/api/requests/teams', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp({ path: '/team/join', loggedIn: true });
    await user.type(await screen.findByRole('combobox', { name: 'Team' }), 'edge');
    await user.click(await screen.findByRole('option', { name: 'Edge Computing Lab (Edge Lab)' }));
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Error joining a team')).toBeInTheDocument();
  });
});

describe('team page', () => {
  it('resolves the name and shows the team, its workspaces and users with badges', async () => {
    db.teams = [makeTeam()];
    renderApp({ path: '/teams/edgelab', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 })).toBeInTheDocument();
    expect(requestsTo('GET', '/api/tenants/edgelab')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Vision/ })).toHaveAttribute('href', '/workspaces/7');
    // The owner manages the members (tests/teamAdmin.test.tsx): a table rather than a list.
    const users = screen.getByRole('table', { name: 'Users' });
    expect(within(users).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(users).getByText('Disabled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create workspace' })).toBeInTheDocument();
  });

  it("non-members see the public part and 'Join this team', then 'Request pending'", async () => {
    db.teams = [makeTeam({ member: false, role: null, users: undefined })];
    const { user } = renderApp({ path: '/teams/edgelab', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Join this team' }));
    expect(await screen.findByText('Request pending')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /workspace/i })).not.toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/requests/teams')[0]!.body).toEqual({ team_id: 3 });
  });

  it("members who are not managers get 'Request a workspace'", async () => {
    db.teams = [makeTeam({ role: 'member' })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByRole('button', { name: 'Request a workspace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create workspace' })).not.toBeInTheDocument();
  });
});
