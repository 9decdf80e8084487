import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../src/httpClient';
import { db, requestsTo } from './mocks/db';
import { makeToken, makeUser } from './mocks/fixtures';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

/** SHA-256 of "ada@example.org" (computed independently with Node's crypto). */
const ADA_EMAIL_SHA256 = 'cfe00dde46ef942601ffafb9e2825e802858b460e586b8305b344c1eb826357d';

describe('profile page', () => {
  it('shows the user card, badges, the requests and the tokens', async () => {
    db.user = makeUser({
      admin: true,
      requests: [
        { id: 1, type: 'JoinTeam', status: 'Approved', created_at: '2026-11-01T09:30:00.000Z', object: { fullname: 'Edge Lab', shortname: 'EL' } },
        { id: 2, type: 'CreateWorkspace', status: 'Denied', created_at: '2026-11-02T09:30:00.000Z', object: { name: 'vision' } },
        { id: 3, type: 'JoinWorkspace', status: 'Pending', created_at: '2026-11-03T09:30:00.000Z', object: { name: 'radio' } },
      ],
    });
    db.tokens = [makeToken({ name: 'kubectl' })];
    renderApp({ path: '/profile', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('ada@example.org')).toBeInTheDocument();
    expect(screen.getByText('Platform admin')).toBeInTheDocument();
    expect(screen.getByText('Email verified')).toBeInTheDocument();

    const requests = screen.getByRole('table', { name: 'Your requests' });
    const rows = within(requests).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Join workspaceradioPending03\/11\/2026 \d\d:30$/),
      expect.stringMatching(/^Create workspacevisionDenied02\/11\/2026 \d\d:30$/),
      expect.stringMatching(/^Join teamEdge Lab \(EL\)Approved01\/11\/2026 \d\d:30$/),
    ]);
    const chip = (status: string) => within(requests).getByText(status).closest('[data-status]')!;
    expect(chip('Approved').className).toMatch(/colorSuccess/);
    expect(chip('Denied').className).toMatch(/colorError/);
    expect(chip('Pending').className).toMatch(/colorDefault/);

    expect(await screen.findByText('kubectl')).toBeInTheDocument();
  });

  it('shows an empty state without requests', async () => {
    renderApp({ path: '/profile', loggedIn: true });
    expect(await screen.findByText('You have not made any request yet.')).toBeInTheDocument();
  });

  it('draws initials and asks no outside service when the server names none', async () => {
    renderApp({ path: '/profile', loggedIn: true });
    const card = (await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).closest('section') as HTMLElement;
    expect(await within(card).findByText('AL')).toBeInTheDocument();
    expect(within(card).queryByRole('img', { name: 'Avatar of Ada Lovelace' })).toBeNull();
    expect(card.querySelector('img')).toBeNull();
  });

  it('uses the avatar service the server names, and falls back to initials when it cannot load', async () => {
    renderApp({ path: '/profile', loggedIn: true, settings: { avatarUrl: 'https://www.gravatar.com/avatar/{hash}?s={size}&d=identicon' } });
    const card = (await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).closest('section') as HTMLElement;
    const image = await within(card).findByRole('img', { name: 'Avatar of Ada Lovelace' });
    // SHA-256 of "ada@example.org", trimmed and lowercased.
    expect(image).toHaveAttribute('src', `https://www.gravatar.com/avatar/${ADA_EMAIL_SHA256}?s=200&d=identicon`);
    fireEvent.error(image);
    expect(await within(card).findByText('AL')).toBeInTheDocument();
    expect(within(card).queryByRole('img', { name: 'Avatar of Ada Lovelace' })).toBeNull();
  });

  it('edit requires both names and sends nothing until they are given', async () => {
    const { user } = renderApp({ path: '/profile', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit your profile' });
    const firstname = field('First name');
    expect(firstname).toHaveValue('Ada');
    expect(firstname).toHaveFocus();
    await user.clear(firstname);
    await user.clear(field('Last name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorUnder('First name')).toBe('Required'));
    expect(errorUnder('Last name')).toBe('Required');
    expect(requestsTo('PATCH', '/user')).toHaveLength(0);
  });

  it('edit shows server errors under the fields', async () => {
    const { user } = renderApp({ path: '/profile', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await screen.findByRole('dialog', { name: 'Edit your profile' });
    await user.clear(field('Last name'));
    await user.type(field('Last name'), `${'x'.repeat(256)}{Enter}`);
    await waitFor(() => expect(errorUnder('Last name')).toBe('The lastname field must not be greater than 255 characters.'));
    expect(screen.getByRole('dialog', { name: 'Edit your profile' })).toBeInTheDocument();
  });

  it('edit saves with PATCH /user and updates the page', async () => {
    const { user } = renderApp({ path: '/profile', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await screen.findByRole('dialog', { name: 'Edit your profile' });
    await user.clear(field('First name'));
    await user.type(field('First name'), 'Augusta');
    await user.clear(field('Last name'));
    await user.type(field('Last name'), 'King{Enter}');
    expect(await screen.findByRole('heading', { name: 'Augusta King', level: 1 })).toBeInTheDocument();
    expect(requestsTo('PATCH', '/user')[0]!.body).toEqual({ firstname: 'Augusta', lastname: 'King' });
    // The sidebar entry and the app bar's user menu follow.
    expect(screen.getByRole('menuitem', { name: 'Augusta King' })).toHaveAttribute('href', '/profile');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Profile' })).toHaveTextContent('Augusta King'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('Logout ends the session and shows the login page at /', async () => {
    const { user, path } = renderApp({ path: '/profile', loggedIn: true });
    const card = (await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).closest('section')!;
    await user.click(within(card as HTMLElement).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    await waitFor(() => expect(path()).toBe('/'));
  });
});
