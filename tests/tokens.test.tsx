import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { makeToken } from './mocks/fixtures';
import { errorUnder, findField } from './queries';
import { renderApp } from './render';

describe('tokens', () => {
  it('lists the tokens with formatted dates and Never for no expiry', async () => {
    db.tokens = [
      makeToken({ id: 1, name: 'laptop', created_at: '2026-11-20T08:05:00.000Z', expires_at: null }),
      makeToken({ id: 2, name: 'ci', created_at: '2026-11-21T09:00:00.000Z', expires_at: '2027-01-02T03:04:00.000Z' }),
    ];
    renderApp({ path: '/tokens', loggedIn: true });
    const row = (await screen.findByText('laptop')).closest('tr')!;
    expect(within(row).getByText('Never')).toBeInTheDocument();
    expect(within(row).getByText(/^20\/11\/2026 \d\d:05$/)).toBeInTheDocument();
    const ciRow = screen.getByText('ci').closest('tr')!;
    expect(within(ciRow).getByText(/^0[23]\/01\/2027 \d\d:04$/)).toBeInTheDocument();
  });

  it('shows an empty state when there are no tokens', async () => {
    renderApp({ path: '/tokens', loggedIn: true });
    expect(await screen.findByText('No access tokens yet')).toBeInTheDocument();
  });

  it('creation shows the plain text once; it is gone after closing', async () => {
    const { user } = renderApp({ path: '/tokens', loggedIn: true });
    await screen.findByText('No access tokens yet');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = await screen.findByRole('dialog', { name: 'Create an access token' });
    const name = await findField('Name');
    expect(name).toHaveFocus();
    await user.type(name, 'build server{Enter}');

    const secret = await screen.findByRole('dialog', { name: 'Token created' });
    await waitFor(() => expect(form).not.toBeInTheDocument());
    expect(within(secret).getByRole('textbox', { name: 'Access token' })).toHaveValue('100|plain-secret-100');
    expect(within(secret).getByText(/will not be shown again/)).toBeInTheDocument();

    await user.click(within(secret).getByRole('button', { name: 'Copy' }));
    expect(await within(secret).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('100|plain-secret-100');

    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('build server')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('plain-secret');
    expect(requestsTo('POST', '/api/tokens')[0]!.body).toEqual({ name: 'build server' });
  });

  it("'Copied' goes back to 'Copy' after 2000 ms", async () => {
    const { user } = renderApp({ path: '/tokens', loggedIn: true });
    await screen.findByText('No access tokens yet');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await user.type(await findField('Name'), 'short lived{Enter}');
    const secret = await screen.findByRole('dialog', { name: 'Token created' });
    const started = Date.now();
    await user.click(within(secret).getByRole('button', { name: 'Copy' }));
    await within(secret).findByRole('button', { name: 'Copied' });
    await within(secret).findByRole('button', { name: 'Copy' }, { timeout: 4000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('sends the expiry in days and shows a duplicate name error under the name field', async () => {
    db.tokens = [makeToken({ name: 'ci' })];
    const { user } = renderApp({ path: '/tokens', loggedIn: true });
    await screen.findByText('ci');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await user.type(await findField('Name'), 'ci');
    await user.type(await findField('Expires in (days)'), '30{Enter}');
    await waitFor(() => expect(errorUnder('Name')).toBe('You already have a token with this name.'));
    expect(screen.queryByRole('dialog', { name: 'Token created' })).not.toBeInTheDocument();
    expect(requestsTo('POST', '/api/tokens')[0]!.body).toEqual({ name: 'ci', expires_in_days: 30 });
  });

  it('deletes a token by name after a confirmation that names it', async () => {
    db.tokens = [makeToken({ id: 7, name: 'old laptop' })];
    const { user } = renderApp({ path: '/tokens', loggedIn: true });
    const row = (await screen.findByText('old laptop')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Delete the token "old laptop"?');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByText('old laptop')).not.toBeInTheDocument());
    expect(requestsTo('DELETE', /^\/api\/tokens\//).map((request) => request.url.pathname)).toEqual([
      '/api/tokens/old%20laptop',
    ]);
  });

  it('/tokens/create: the same form as a page, then back to the list', async () => {
    const { user, path } = renderApp({ path: '/tokens/create', loggedIn: true });
    await user.type(await findField('Name'), 'from the page{Enter}');
    const secret = await screen.findByRole('dialog', { name: 'Token created' });
    expect(within(secret).getByRole('textbox', { name: 'Access token' })).toHaveValue('100|plain-secret-100');
    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('from the page')).toBeInTheDocument();
    expect(path()).toBe('/tokens');
  });
});
