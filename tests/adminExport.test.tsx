import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { makeUser, SESSION_TOKEN } from './mocks/fixtures';
import { makeAdminNode, nodesDb } from './mocks/nodes';
import { server } from './mocks/server';
import { createI18nProvider } from '../src/i18n';
import { renderApp } from './render';

// The admin lists' Export downloads the server's CSV (GET /api/admin/{list}.csv) for the
// list's current filters, with the session's token; react-admin's client-side export is gone.

const adminUser = (id: number, email: string) => ({
  id,
  name: `User ${id}`,
  email,
  admin: false,
  enabled: false,
  created_at: '2026-11-20T08:05:00.000Z',
  teams: [],
  workspaces: [],
});

/**
 * The whole console's first render (with a filter form) takes seconds on a busy machine, the
 * first test of the file most (cold imports): more than findBy's default second.
 */
const FIRST_RENDER = { timeout: 10_000 };

const withFilter = (path: string, filter: Record<string, unknown>) => `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

describe('admin list Export', () => {
  let createObjectURL: ReturnType<typeof vi.fn>;
  let clicked: { href: string; download: string }[];

  beforeEach(() => {
    db.user = makeUser({ admin: true });
    db.admin.users = [adminUser(1, 'ada@example.org'), adminUser(2, 'adam@example.org')];
    createObjectURL = vi.fn(() => 'blob:mock-csv');
    // jsdom has neither: the download must go through them.
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    clicked = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('/admin/users: Export asks the server for users.csv with the filters and the token, and saves it', async () => {
    const { user } = renderApp({ path: withFilter('/admin/users', { q: 'ada', enabled: false }), loggedIn: true });
    await screen.findByText('ada@example.org', {}, FIRST_RENDER);
    expect(screen.getAllByRole('button', { name: 'Export' })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:mock-csv', download: 'users-2026-11-22.csv' }]));

    const [request] = requestsTo('GET', '/api/admin/users.csv');
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({ q: 'ada', 'filter[enabled]': 'false' });
    expect(request!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(await blob.text()).toBe('id\r\n1\r\n2\r\n');
    // Not a page at a time through the JSON list any more.
    expect(requestsTo('GET', '/api/admin/users').every((list) => list.url.searchParams.get('per_page') !== '1000')).toBe(true);
  });

  it('is disabled with a spinner while the file downloads', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(/\/api\/admin\/users\.csv$/, async () => {
        await released;
        return new HttpResponse('id\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }),
    );
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await screen.findByText('ada@example.org', {}, FIRST_RENDER);
    const button = screen.getByRole('button', { name: 'Export' });
    await user.click(button);

    await waitFor(() => expect(button).toBeDisabled());
    expect(within(button).getByRole('progressbar', { name: 'Exporting…' })).toBeInTheDocument();
    release();
    await waitFor(() => expect(button).toBeEnabled());
    expect(within(button).queryByRole('progressbar')).not.toBeInTheDocument();
    // No Content-Disposition readable: the list's name and today's date.
    expect(clicked).toEqual([{ href: 'blob:mock-csv', download: `users-${new Date().toISOString().slice(0, 10)}.csv` }]);
  });

  it('starts at once and counts the rows as the server streams them, in English and French', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const encoder = new TextEncoder();
    // A cell with a line break inside quotes is one record, not two.
    const firstPart = `id,name\r\n${Array.from({ length: 1199 }, (_, n) => `${n + 1},User ${n + 1}\r\n`).join('')}1200,"Two\r\nlines"\r\n`;
    server.use(
      http.get(/\/api\/admin\/users\.csv$/, () => {
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode(firstPart));
            // The rest only once the test has seen the progress.
            await released;
            controller.enqueue(encoder.encode('1201,Last\r\n'));
            controller.close();
          },
        });
        return new HttpResponse(body, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="users-2026-11-22.csv"' } });
      }),
    );
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await screen.findByText('ada@example.org', {}, FIRST_RENDER);
    const button = screen.getByRole('button', { name: 'Export' });
    await user.click(button);
    // The first rows are counted while the rest is still on its way; nothing saved yet.
    expect(await screen.findByRole('status')).toHaveTextContent('1,200 rows so far…');
    expect(button).toBeDisabled();
    expect(clicked).toEqual([]);
    release();
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:mock-csv', download: 'users-2026-11-22.csv' }]));
    expect(button).toBeEnabled();
    expect(screen.queryByText(/rows so far/)).not.toBeInTheDocument();
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(await blob.text()).toBe(`${firstPart}1201,Last\r\n`);

    const provider = createI18nProvider();
    await provider.changeLocale('fr');
    expect(provider.translate('resources.export.rows', { smart_count: 1, count: '1' })).toBe('1 ligne pour l’instant…');
    expect(provider.translate('resources.export.rows', { smart_count: 12000, count: '12 000' })).toBe('12 000 lignes pour l’instant…');
  });

  it("shows the server's message, or a generic one, when the export fails", async () => {
    server.use(http.get(/\/api\/admin\/users\.csv$/, () => HttpResponse.json({ message: 'The filter[enabled] filter must be true or false.' }, { status: 422 })));
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await screen.findByText('ada@example.org', {}, FIRST_RENDER);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('The filter[enabled] filter must be true or false.')).toBeInTheDocument();

    server.use(http.get(/\/api\/admin\/users\.csv$/, async () => {
      await delay(1);
      return new HttpResponse('oops', { status: 500 });
    }));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('The export could not be downloaded. Try again.')).toBeInTheDocument();
    expect(clicked).toEqual([]);
  });

  it('/admin/activity and /admin/nodes export their own lists with their filters', async () => {
    db.admin.activity = [
      { id: 9, causer: null, description: 'failed login', subject: null, subject_type: 'user', properties: { severity: 'warning' }, created_at: '2026-11-20T08:05:09.000Z' },
    ];
    const activity = renderApp({ path: withFilter('/admin/activity', { severity: 'warning', subject_type: 'user' }), loggedIn: true });
    await screen.findByText('failed login', {}, FIRST_RENDER);
    await activity.user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(requestsTo('GET', '/api/admin/activity.csv')).toHaveLength(1));
    expect(Object.fromEntries(requestsTo('GET', '/api/admin/activity.csv')[0]!.url.searchParams)).toEqual({
      'filter[severity]': 'warning',
      'filter[subject_type]': 'user',
    });
    activity.unmount();

    nodesDb.adminNodes = [makeAdminNode({ name: 'rpi-1' })];
    const nodes = renderApp({ path: withFilter('/admin/nodes', { q: 'rpi' }), loggedIn: true });
    await screen.findByRole('link', { name: 'rpi-1' }, FIRST_RENDER);
    await nodes.user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked.map((click) => click.download)).toContain('nodes-2026-11-22.csv'));
    expect(Object.fromEntries(requestsTo('GET', '/api/admin/nodes.csv')[0]!.url.searchParams)).toEqual({ q: 'rpi' });
  });
});
