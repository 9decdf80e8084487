import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOCALE_KEY } from '../src/i18n/locale';
import { makeRequestToDecide, makeTeam, makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { lifecycleDb, lifecycleHandlers, resetLifecycleDb } from './mocks/lifecycle';
import { server } from './mocks/server';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

// Renewal in the console (docs/lifecycle.md): the workspace page's banner (also once it ended
// and is being suspended, in English and in French) and button, the dialog (days, reason, the
// server's 422 under the fields and 409 said plainly), the team page's review date, the home's
// list of what ends soon, and the renewals among the requests to decide.

const FIRST_RENDER = { timeout: 10_000 };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeEach(() => {
  resetLifecycleDb();
  server.use(...lifecycleHandlers);
});

const expiringWorkspace = (overrides: Record<string, unknown> = {}) =>
  makeWorkspace({ status: 'expiring', expires_at: inDays(20), ends_at: inDays(20), suspension: null, ...overrides });

describe('the renewal dialog on the workspace page', () => {
  it('opens from the banner with 90 days, requires a reason, sends days and reason, then says it is pending', async () => {
    db.workspaces = [expiringWorkspace()];
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const banner = (await screen.findByText(/This workspace ends on/, {}, FIRST_RENDER)).closest('[role="alert"]') as HTMLElement;
    await user.click(within(banner).getByRole('button', { name: 'Request renewal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request the renewal of Vision' });
    expect(field('Days')).toHaveValue(90);

    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(errorUnder('Reason')).toBe('Required');
    await user.clear(field('Days'));
    await user.type(field('Days'), '0');
    await user.type(field('Reason'), 'The class runs until June.');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(errorUnder('Days')).toBe('Give a whole number of days from 1 to 3650.');
    expect(requestsTo('POST', '/api/requests/workspaces/7/renewal')).toHaveLength(0);

    await user.clear(field('Days'));
    await user.type(field('Days'), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(requestsTo('POST', '/api/requests/workspaces/7/renewal')).toHaveLength(1));
    expect(requestsTo('POST', '/api/requests/workspaces/7/renewal')[0]!.body).toEqual({ days: 120, reason: 'The class runs until June.' });
    expect(await screen.findByText('Your request to renew Vision was sent. You will be told of the decision.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // GET /user now has the pending renewal: the button gives way to its state.
    expect(await within(banner).findByText('Renewal requested')).toBeInTheDocument();
  });

  it('shows the server’s 422 under its field and its 409 as it words it', async () => {
    db.workspaces = [expiringWorkspace()];
    server.use(
      http.post('/api/requests/workspaces/:id/renewal', () =>
        HttpResponse.json({ message: 'The days field must be between 1 and 3650.', errors: { days: ['The days field must be between 1 and 3650.'] } }, { status: 422 }),
        { once: true },
      ),
    );
    lifecycleDb.pending.add('workspace:7');
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Request renewal' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog');
    await user.type(field('Reason'), 'Still needed.');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(errorUnder('Days')).toBe('The days field must be between 1 and 3650.'));

    // Someone else's renewal is pending: the 409, plainly, and the dialog stays.
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText('A request for this is already pending.')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('says so when the renewal is approved at once, and shows the end date without a banner once active', async () => {
    db.workspaces = [makeWorkspace({ status: 'active', expires_at: '2027-06-30T10:00:00.000Z', ends_at: '2027-06-30T10:00:00.000Z', suspension: null })];
    lifecycleDb.approveAtOnce = true;
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText('Ends 30 June 2027', {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByText(/This workspace ends on/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Request renewal' }));
    await user.type(field('Reason'), 'Another term.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Vision is renewed.')).toBeInTheDocument();
  });

  it('offers no renewal to a plain member', async () => {
    db.workspaces = [expiringWorkspace({ role: 'member', can_manage: false })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText(/This workspace ends on/, {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request renewal' })).not.toBeInTheDocument();
  });
});

describe('the workspace page once the workspace ended', () => {
  // Until the reconciler has applied the suspension on the cluster (docs/lifecycle.md), the
  // banner says it is under way rather than done.
  const suspending = () => makeWorkspace({ status: 'expired', expires_at: '2027-03-04T10:00:00.000Z', ends_at: '2027-03-04T10:00:00.000Z', suspension: 'suspending' });

  it('says it is being suspended', async () => {
    db.workspaces = [suspending()];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    const banner = (await screen.findByText(/^This workspace ended on 4 March 2027.* and is being suspended on the cluster\.$/, {}, FIRST_RENDER)).closest('[role="alert"]');
    expect(banner).toBeInTheDocument();
    expect(screen.queryByText(/and is suspended: no cluster access/)).not.toBeInTheDocument();
  });

  it('says so in French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ locale: 'fr' });
    db.workspaces = [suspending()];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText(/^Cet espace de travail a pris fin le 4 mars 2027.* et est en cours de suspension sur le cluster\.$/, {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByText(/et est suspendu : ni accès au cluster/)).not.toBeInTheDocument();
  });
});

describe('the team page', () => {
  it('shows the review date and status, a banner before it, and lets an owner ask the platform admins', async () => {
    db.teams = [makeTeam({ expires_at: inDays(10), status: 'expiring', enabled: true })];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const banner = (await screen.findByText(/This team is due for review on/, {}, FIRST_RENDER)).closest('[role="alert"]') as HTMLElement;
    const details = screen.getByRole('region', { name: 'About the team' });
    expect(within(details).getByText('Review due')).toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Request renewal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request the renewal of the team Edge Computing Lab' });
    expect(within(dialog).queryByLabelText(/Days/)).not.toBeInTheDocument();
    await user.type(field('Reason'), 'Our projects go on.');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(requestsTo('POST', '/api/requests/teams/3/renewal')[0]?.body).toEqual({ reason: 'Our projects go on.' }));
    expect(await screen.findByText('Your request to renew Edge Computing Lab was sent to the platform admins.')).toBeInTheDocument();
  });

  it('says a team ended; a member is told but gets no renewal', async () => {
    db.teams = [makeTeam({ expires_at: inDays(-3), status: 'expired', enabled: true, role: 'member' })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByText(/The review date of this team passed on/, {}, FIRST_RENDER)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'About the team' })).getByText('Ended')).toBeInTheDocument();
    // A member is told, but the renewal is its owners' and managers'.
    expect(screen.queryByRole('button', { name: 'Request renewal' })).not.toBeInTheDocument();
  });
});

describe('the home', () => {
  it('lists the workspaces and owned teams that end soon or ended, each with its page and a renewal where allowed', async () => {
    db.user = makeUser({
      teams: [
        { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', role: 'owner', expires_at: inDays(12), status: 'expiring' },
        { id: 4, name: 'other', fullname: 'Other Lab', role: 'member', expires_at: inDays(2), status: 'expiring' },
      ],
      workspaces: [
        { id: 7, name: 'vision', label: 'Vision', team: { id: 3, name: 'edgelab' }, role: 'member', expires_at: inDays(-1), ends_at: inDays(-1), status: 'expired' },
        { id: 8, name: 'radio', label: 'Radio', team: { id: 4, name: 'other' }, role: 'member', expires_at: inDays(5), ends_at: inDays(5), status: 'expiring' },
        { id: 9, name: 'calm', label: 'Calm', team: { id: 3, name: 'edgelab' }, role: 'member', expires_at: inDays(300), ends_at: inDays(300), status: 'active' },
      ],
    });
    const { user } = renderApp({ path: '/', loggedIn: true });
    const banner = await screen.findByRole('region', { name: 'Ending soon' }, FIRST_RENDER);
    const items = within(banner).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/Workspace|Team/).textContent)).toEqual([
      expect.stringMatching(/^Team Edge Computing Lab is due for review on /),
      expect.stringMatching(/^Workspace Vision ended on .* and is suspended\.$/),
      expect.stringMatching(/^Workspace Radio ends on /),
    ]);
    // The team's owner renews the team and the workspaces of their team; not Radio, of a team they only belong to.
    expect(within(items[0]!).getByRole('button', { name: 'Request renewal: Edge Computing Lab' })).toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Request renewal: Vision' })).toBeInTheDocument();
    expect(within(items[2]!).queryByRole('button', { name: /Request renewal/ })).not.toBeInTheDocument();
    expect(within(items[2]!).getByRole('link', { name: /^Open/ })).toHaveAttribute('href', '/workspaces/8');

    await user.click(within(items[1]!).getByRole('button', { name: 'Request renewal: Vision' }));
    expect(await screen.findByRole('dialog', { name: 'Request the renewal of Vision' })).toBeInTheDocument();
  });

  it('shows nothing when nothing ends soon', async () => {
    db.user = makeUser({ workspaces: [{ id: 9, name: 'calm', label: 'Calm', role: 'manager', status: 'active', ends_at: inDays(300) }] });
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Your workspaces' }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Ending soon' })).not.toBeInTheDocument();
  });
});

describe('renewals among the requests', () => {
  it('lists them with their type and the days asked, and shows what is asked when deciding', async () => {
    db.toDecide = [
      makeRequestToDecide({
        id: 30,
        type: 'RenewWorkspace',
        message: 'The class runs until June.',
        data: { days: 120, expires_at: '2027-01-15T10:00:00.000Z' },
        object: { id: 7, name: 'vision', label: 'Vision' },
      }),
      makeRequestToDecide({ id: 31, type: 'RenewTeam', data: { expires_at: null }, object: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab' } }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    const row = (await screen.findByText('+120 days', {}, FIRST_RENDER)).closest('tr')!;
    expect(row).toHaveTextContent('Renew workspace');
    expect(row).toHaveTextContent('vision');
    expect(screen.getByText('Renew team').closest('tr')).toHaveTextContent('Edge Computing Lab (Edge Lab)');

    await user.click(within(row).getByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    const asked = within(dialog).getByLabelText('What was asked');
    expect(asked).toHaveTextContent('Days asked120');
    expect(asked).toHaveTextContent('Current end15 January 2027');
    // The membership end date is for joins only.
    expect(within(dialog).queryByLabelText(/Membership ends/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/requests/30')[0]?.body).toEqual({ action: 'approve' }));
  });
});

describe('requests for more quota among the requests', () => {
  it('list what is asked against what the workspace has, and say when platform admins decide', async () => {
    db.toDecide = [
      makeRequestToDecide({
        id: 40,
        type: 'QuotaIncrease',
        message: 'A bigger model to train.',
        data: { quota: { cpu: '12', pods: 80 }, current: { cpu: '8', memory: '16Gi', pods: 50, storage: '100Gi' }, until: '2027-02-01T00:00:00.000Z', admins_decide: true },
        object: { id: 7, name: 'vision', label: 'Vision' },
      }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    const row = (await screen.findByText('CPU (requests): 8 → 12 · Pods: 50 → 80', {}, FIRST_RENDER)).closest('tr')!;
    expect(row).toHaveTextContent('More quota');
    await user.click(within(row).getByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    const asked = within(dialog).getByLabelText('What was asked');
    expect(asked).toHaveTextContent('CPU (requests)8 → 12');
    expect(asked).toHaveTextContent('Pods50 → 80');
    expect(asked).toHaveTextContent('Until1 February 2027');
    expect(asked).toHaveTextContent('More than the team has left: platform admins decide');
  });
});
