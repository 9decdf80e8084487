import { http as mswHttp, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDataProvider } from '../src/dataProvider';
import { createHttpClient, tokenStore } from '../src/httpClient';
import { SESSION_TOKEN } from './mocks/fixtures';
import { server } from './mocks/server';

// The data provider's methods that are not CRUD: each one goes to its endpoint of
// docs/api-contract.md with its method, query and body, and gives back the answer.

interface Seen {
  method: string;
  path: string;
  body: unknown;
  accept: string | null;
}

let seen: Seen[] = [];

/** Answers every call with `answer` (JSON, or a file) and records what was sent. */
const answerAll = (answer: (url: URL) => Response = () => HttpResponse.json({})) => {
  server.use(
    mswHttp.all('*', async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      seen.push({
        method: request.method,
        path: `${url.pathname}${url.search ? decodeURIComponent(url.search) : ''}`,
        body: text ? JSON.parse(text) : undefined,
        accept: request.headers.get('Accept'),
      });
      return answer(url);
    }),
  );
};

const provider = () => createDataProvider(createHttpClient());

beforeEach(() => {
  seen = [];
  tokenStore.set(SESSION_TOKEN);
});

describe('data provider custom methods', () => {
  it('requests: ask for and join teams and workspaces, decide by ids or by filter', async () => {
    answerAll(() => HttpResponse.json({ id: 9, status: 'Pending' }));
    const dataProvider = provider();
    expect(await dataProvider.requestTeam({ shortname: 'abc' })).toEqual({ id: 9, status: 'Pending' });
    await dataProvider.joinTeam({ team_id: 3, message: 'hi' });
    await dataProvider.requestWorkspace({ label: 'L', name: 'l', team_id: 3 });
    await dataProvider.joinWorkspace({ team_id: 3, name: 'l' });
    await dataProvider.decideRequests({ ids: [1, 2], action: 'approve' });
    await dataProvider.decideMatchingRequests({ filter: { status: 'Pending' }, action: 'deny', dryRun: true });
    await dataProvider.decideMatchingRequests({ filter: { q: 'x' }, action: 'approve', message: 'ok', dryRun: false });
    await dataProvider.renewWorkspace(7, { days: 90, reason: 'class' });
    await dataProvider.renewTeam(3, { reason: 'research' });
    expect(seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/api/requests/teams', body: { shortname: 'abc' } },
      { method: 'PATCH', path: '/api/requests/teams', body: { team_id: 3, message: 'hi' } },
      { method: 'POST', path: '/api/requests/workspaces', body: { label: 'L', name: 'l', team_id: 3 } },
      { method: 'PATCH', path: '/api/requests/workspaces/', body: { team_id: 3, name: 'l' } },
      { method: 'POST', path: '/api/requests/bulk', body: { ids: [1, 2], action: 'approve' } },
      { method: 'POST', path: '/api/requests/bulk', body: { filter: { status: 'Pending' }, action: 'deny', dry_run: true } },
      { method: 'POST', path: '/api/requests/bulk', body: { filter: { q: 'x' }, action: 'approve', message: 'ok' } },
      { method: 'POST', path: '/api/requests/workspaces/7/renewal', body: { days: 90, reason: 'class' } },
      { method: 'POST', path: '/api/requests/teams/3/renewal', body: { reason: 'research' } },
    ]);
  });

  it('teams: members and invitations go to the /api/tenants paths of the wire', async () => {
    answerAll((url) => HttpResponse.json(url.pathname.endsWith('/invitations') && url.pathname.startsWith('/api') ? [] : {}));
    const dataProvider = provider();
    await dataProvider.changeTeamMemberRole(3, 7, 'manager');
    await dataProvider.removeTeamMember(3, 7);
    await dataProvider.removeTeamMembers(3, [7, 8]);
    expect(await dataProvider.getTeamInvitations(3)).toEqual([]);
    await dataProvider.inviteToTeam(3, { email: 'a@b.c', role: 'member', workspace_ids: [4] });
    await dataProvider.resendTeamInvitation(3, 5);
    await dataProvider.revokeTeamInvitation(3, 5);
    await dataProvider.setTeamMembershipEnd(3, 7, '2027-06-30T21:59:59.000Z');
    await dataProvider.setTeamMembershipEnd(3, 7, null);
    await dataProvider.inviteManyToTeam(3, { emails: ['a@b.c', 'd@e.f'], role: 'member', workspace_ids: [], membership_expires_at: '2027-06-30T21:59:59.000Z' });
    expect(seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'PATCH', path: '/api/tenants/3/users/7', body: { role: 'manager' } },
      { method: 'DELETE', path: '/api/tenants/3/users/7', body: undefined },
      { method: 'POST', path: '/api/tenants/3/users/bulk', body: { action: 'remove', user_ids: [7, 8] } },
      { method: 'GET', path: '/api/tenants/3/invitations', body: undefined },
      { method: 'POST', path: '/api/tenants/3/invitations', body: { email: 'a@b.c', role: 'member', workspace_ids: [4] } },
      { method: 'POST', path: '/api/tenants/3/invitations/5/resend', body: undefined },
      { method: 'DELETE', path: '/api/tenants/3/invitations/5', body: undefined },
      { method: 'PATCH', path: '/api/tenants/3/users/7', body: { expires_at: '2027-06-30T21:59:59.000Z' } },
      { method: 'PATCH', path: '/api/tenants/3/users/7', body: { expires_at: null } },
      {
        method: 'POST',
        path: '/api/tenants/3/invitations',
        body: { emails: ['a@b.c', 'd@e.f'], role: 'member', workspace_ids: [], membership_expires_at: '2027-06-30T21:59:59.000Z' },
      },
    ]);
  });

  it('teams: the console name "teams" is /api/tenants on the wire', async () => {
    answerAll(() => HttpResponse.json({ id: 3, name: 'physics' }));
    expect((await provider().getOne('teams', { id: 'physics' })).data).toEqual({ id: 3, name: 'physics' });
    expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /api/tenants/physics']);
  });

  it('workspaces and nodes: kubeconfig, members, pods, activity', async () => {
    answerAll((url) => HttpResponse.json(url.pathname === '/api/pods' ? { data: [{ name: 'p', namespace: 'ns' }] } : url.pathname.endsWith('/activity') ? [] : { kubeconfig: 'k' }));
    const dataProvider = provider();
    expect(await dataProvider.createKubeconfig(4)).toEqual({ kubeconfig: 'k' });
    await dataProvider.removeWorkspaceMember(4, 7);
    expect(await dataProvider.getPods('ns')).toEqual([{ name: 'p', namespace: 'ns' }]);
    expect(await dataProvider.getNodeActivity(2)).toEqual([]);
    expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/subnamespaces/4/kubeconfig',
      'DELETE /api/subnamespaces/4/users/7',
      'GET /api/pods?namespace=ns',
      'GET /api/nodes/2/activity',
    ]);
  });

  it('profile: linked identities', async () => {
    answerAll((url) => HttpResponse.json(url.pathname === '/api/identities' ? { url: 'https://idp.example/auth' } : {}));
    const dataProvider = provider();
    await dataProvider.getLinkedIdentities();
    expect(await dataProvider.startIdentityLink('edu', 'secret')).toEqual({ url: 'https://idp.example/auth' });
    await dataProvider.unlinkIdentity(6);
    expect(seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'GET', path: '/api/identities', body: undefined },
      { method: 'POST', path: '/api/identities', body: { provider: 'edu', password: 'secret' } },
      { method: 'DELETE', path: '/api/identities/6', body: undefined },
    ]);
  });

  it('admin: bulk actions, cascade deletion, tokens, identities, nodes', async () => {
    answerAll((url) => HttpResponse.json(url.pathname.endsWith('/tokens') ? { revoked: 3 } : url.pathname.includes('/admin/nodes/') ? { name: 'n1' } : {}));
    const dataProvider = provider();
    await dataProvider.deleteTeamCascade(3, { dryRun: true });
    await dataProvider.deleteTeamCascade(3, { dryRun: false });
    await dataProvider.bulkTeams({ ids: [3], action: 'suspend', dry_run: true });
    await dataProvider.bulkDeleteWorkspaces([4, 5], { dryRun: true });
    await dataProvider.bulkUsers({ filter: { q: 'x' }, action: 'disable' });
    expect(await dataProvider.revokeUserTokens(7)).toBe(3);
    expect(await dataProvider.revokeUserTokens(7, 11)).toBe(1);
    await dataProvider.getUserIdentities(7);
    expect(await dataProvider.setNodeEnabled('n1', false)).toEqual({ name: 'n1', id: 'n1' });
    expect(seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'DELETE', path: '/api/admin/teams/3?cascade=1&dry_run=1', body: undefined },
      { method: 'DELETE', path: '/api/admin/teams/3?cascade=1', body: undefined },
      { method: 'POST', path: '/api/admin/teams/bulk', body: { ids: [3], action: 'suspend', dry_run: true } },
      { method: 'POST', path: '/api/admin/workspaces/bulk', body: { ids: [4, 5], action: 'delete', dry_run: true } },
      { method: 'POST', path: '/api/admin/users/bulk', body: { filter: { q: 'x' }, action: 'disable' } },
      { method: 'DELETE', path: '/api/admin/users/7/tokens', body: undefined },
      { method: 'DELETE', path: '/api/admin/users/7/tokens/11', body: undefined },
      { method: 'GET', path: '/api/admin/users/7/identities', body: undefined },
      { method: 'POST', path: '/api/admin/nodes/n1/disable', body: undefined },
    ]);
  });

  it('files: CSV exports and node images come back as files, with the server file name or a fallback', async () => {
    answerAll((url) =>
      url.pathname.endsWith('.csv')
        ? new HttpResponse('id\n1\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="teams.csv"' } })
        : new HttpResponse('IMG', { headers: { 'Content-Type': 'application/octet-stream' } }),
    );
    const dataProvider = provider();
    const csv = await dataProvider.exportCsv('admin/teams', { q: 'phy', has_workspaces: true });
    expect(csv.filename).toBe('teams.csv');
    expect(await csv.blob.text()).toBe('id\n1\n');
    const image = await dataProvider.downloadNodeImage({ id: 2, image_url: null });
    expect(image.filename).toBeNull();
    expect(await image.blob.text()).toBe('IMG');
    expect(seen.map(({ method, path, accept }) => `${method} ${path} (${accept})`)).toEqual([
      'GET /api/admin/teams.csv?q=phy&filter[has_workspaces]=true (text/csv, application/json)',
      'GET /api/nodes/2/image (application/octet-stream, application/json)',
    ]);
  });

  it('files: a refused download is the http client error with the server message', async () => {
    answerAll(() => HttpResponse.json({ message: 'Not allowed.' }, { status: 403 }));
    await expect(provider().exportCsv('admin/users', {})).rejects.toMatchObject({ status: 403, message: 'Not allowed.' });
  });
});
