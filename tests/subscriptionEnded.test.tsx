import { render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, Notification } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createProviders } from '../src/App';
import { tokenStore } from '../src/httpClient';
import { i18nProvider } from '../src/i18n';
import { RealtimeClientProvider } from '../src/realtime/RealtimeProvider';
import { readSubscriptionEnded } from '../src/realtime/subscriptionEnded';
import { markWorkspaceDeleted } from '../src/realtime/deletedWorkspaces';
import { ACCESS_ENDED_NOTICE_DELAY_MS, PodsSection } from '../src/resources/workspaces/PodsSection';
import { defaultSettings } from '../src/settings';
import { makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { SESSION_TOKEN } from './mocks/fixtures';
import { memoryRealtime } from './realtimeMemory';

// When the realtime server ends the workspace subscription (SubscriptionEnded: the member was
// removed or left, the session or account ended), the Pods section says why and stops.

const renderPods = () => {
  tokenStore.set(SESSION_TOKEN);
  db.workspaces = [makeWorkspace()];
  db.pods = { 'edgelab-vision': [{ name: 'web-1', namespace: 'edgelab-vision', status: { phase: 'Running' } }] };
  const realtime = memoryRealtime();
  const { dataProvider } = createProviders(defaultSettings());
  render(
    <AdminContext i18nProvider={i18nProvider} dataProvider={dataProvider}>
      <RealtimeClientProvider value={realtime.client}>
        <PodsSection workspaceId={7} namespace="edgelab-vision" workspaceName="Vision" />
      </RealtimeClientProvider>
      <Notification />
    </AdminContext>,
  );
  return realtime;
};

describe('the Pods section when the server ends its subscription', () => {
  it('tells the removed member, replaces the pods with the reason, and stops listening and listing', async () => {
    const realtime = renderPods();
    const section = (await screen.findByRole('heading', { name: 'Pods' })).closest('section')!;
    expect(await within(section).findByText('web-1')).toBeInTheDocument();
    expect(realtime.listening('workspace.7').sort()).toEqual(['workspace.7 PodsChanged', 'workspace.7 SubscriptionEnded']);
    const listed = requestsTo('GET', '/api/pods').length;

    realtime.emit('workspace.7', 'SubscriptionEnded', { reason: 'access-ended', message: 'You no longer have access to this workspace.' });
    // The notice (react-admin's notify, after ACCESS_ENDED_NOTICE_DELAY_MS) and the section both say why.
    await waitFor(() => expect(screen.getAllByText('You no longer have access to workspace Vision.')).toHaveLength(2), { timeout: 3000 });
    expect(within(section).getByText('The pods of this workspace are no longer shown.')).toBeInTheDocument();
    expect(within(section).queryByText('web-1')).not.toBeInTheDocument();
    expect(realtime.listening('workspace.7')).toEqual([]);
    expect(requestsTo('GET', '/api/pods')).toHaveLength(listed);
  });

  it('says the session ended when that is the reason', async () => {
    const realtime = renderPods();
    const section = (await screen.findByRole('heading', { name: 'Pods' })).closest('section')!;
    await within(section).findByText('web-1');
    realtime.emit('workspace.7', 'SubscriptionEnded', { reason: 'session-ended', message: 'Your session has ended. Sign in again.' });
    await waitFor(() => expect(screen.getAllByText('Your session has ended. Sign in again.')).toHaveLength(2));
  });

  it('tells no lost access for a workspace just deleted (WorkspaceDeleted says why), in whichever order they come', async () => {
    const realtime = renderPods();
    const section = (await screen.findByRole('heading', { name: 'Pods' })).closest('section')!;
    await within(section).findByText('web-1');
    realtime.emit('workspace.7', 'SubscriptionEnded', { reason: 'access-ended', message: 'You no longer have access to this workspace.' });
    // The deletion is told just after the subscription ended, while the page is still shown.
    markWorkspaceDeleted(7);
    expect(within(section).getByText('You no longer have access to workspace Vision.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, ACCESS_ENDED_NOTICE_DELAY_MS + 300));
    expect(screen.getAllByText('You no longer have access to workspace Vision.')).toHaveLength(1);
  });

  it('reads an unknown or missing reason as a lost access', () => {
    expect(readSubscriptionEnded({ reason: 'something-new' })).toEqual({ reason: 'access-ended', message: undefined });
    expect(readSubscriptionEnded(null)).toEqual({ reason: 'access-ended', message: undefined });
    expect(readSubscriptionEnded({ reason: 'account-disabled', message: 'x' })).toEqual({ reason: 'account-disabled', message: 'x' });
  });
});
