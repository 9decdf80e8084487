import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { makeAdminTeamDetail, resetTeamAdminDb, teamAdminDb, teamAdminHandlers } from './mocks/teamAdmin';
import { renderApp } from './render';

// The admin team page's tabs on a phone: they scroll (with scroll buttons, also on
// touch screens) when they do not fit, instead of widening the page. jsdom has no layout: the
// screenshots at 390 px are in the report; here, that the tabs are the scrollable kind.

beforeEach(() => {
  resetTeamAdminDb();
  server.use(...teamAdminHandlers);
  db.user = makeUser({ admin: true });
});

describe('/admin/teams/{id} tabs', () => {
  it('are scrollable tabs, and each still opens its panel', async () => {
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 }, { timeout: 5000 })).toBeInTheDocument();
    const tablist = screen.getByRole('tablist');
    expect(tablist.closest('.MuiTabs-root')!.querySelector('.MuiTabs-scroller')).toHaveClass('MuiTabs-scrollableX');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Summary', 'Members', 'Workspaces', 'Activity']);
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(screen.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  });
});
