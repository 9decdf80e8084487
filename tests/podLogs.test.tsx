import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../src/i18n';
import { RealtimeClientProvider, type RealtimeClient } from '../src/realtime/RealtimeProvider';
import { mergeLogLines, PodLogsDialog } from '../src/resources/workspaces/PodLogsDialog';
import { memoryRealtime } from './realtimeMemory';

// The logs dialog against an in-memory realtime client (tests/realtimeMemory.ts).

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ seq: from + index, text: `line ${from + index}`, time: null }));

describe('mergeLogLines', () => {
  it('appends in order, drops lines already shown (a replay to a late subscriber) and keeps the newest', () => {
    expect(mergeLogLines(lines(1, 3), [...lines(2, 5)].reverse()).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(mergeLogLines(lines(1, 3), lines(1, 3))).toEqual(lines(1, 3));
    expect(mergeLogLines(lines(1, 3), lines(4, 6), 4).map((l) => l.seq)).toEqual([3, 4, 5, 6]);
  });
});

describe('the logs dialog', () => {
  const renderDialog = (realtime: RealtimeClient | null, open = true) => {
    const user = userEvent.setup({ delay: null });
    const view = render(
      <AdminContext i18nProvider={i18nProvider}>
        <RealtimeClientProvider value={realtime}>
          <PodLogsDialog workspaceId={7} pod="web-1" open={open} onClose={() => {}} />
        </RealtimeClientProvider>
      </AdminContext>,
    );
    return { user, ...view };
  };

  it('listens on the pod-log channel while open, shows lines as they arrive, and leaves when closed', async () => {
    const realtime = memoryRealtime();
    const { rerender } = renderDialog(realtime.client);
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    expect(realtime.listening('pod-logs.7.web-1').sort()).toEqual(['pod-logs.7.web-1 PodLogLines', 'pod-logs.7.web-1 PodLogStatus', 'pod-logs.7.web-1 SubscriptionEnded']);

    realtime.emit('pod-logs.7.web-1', 'PodLogStatus', { state: 'streaming' });
    realtime.emit('pod-logs.7.web-1', 'PodLogLines', { lines: lines(1, 2) });
    const view = within(dialog).getByTestId('pod-log-lines');
    expect(view.textContent).toBe('line 1line 2');
    // The same lines again (a replay) are not shown twice.
    realtime.emit('pod-logs.7.web-1', 'PodLogLines', { lines: lines(1, 3) });
    expect(view.textContent).toBe('line 1line 2line 3');

    rerender(
      <AdminContext i18nProvider={i18nProvider}>
        <RealtimeClientProvider value={realtime.client}>
          <PodLogsDialog workspaceId={7} pod="web-1" open={false} onClose={() => {}} />
        </RealtimeClientProvider>
      </AdminContext>,
    );
    expect(realtime.listening('pod-logs.7.web-1')).toEqual([]);
  });

  it('Pause freezes the view and counts the new lines; Follow shows them', async () => {
    const realtime = memoryRealtime();
    const { user } = renderDialog(realtime.client);
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    realtime.emit('pod-logs.7.web-1', 'PodLogLines', { lines: lines(1, 1) });
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    realtime.emit('pod-logs.7.web-1', 'PodLogLines', { lines: lines(2, 3) });
    const view = within(dialog).getByTestId('pod-log-lines');
    expect(view.textContent).toBe('line 1');
    expect(within(dialog).getByText('2 new lines while paused')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Follow' }));
    expect(view.textContent).toBe('line 1line 2line 3');
    expect(within(dialog).queryByText(/new lines? while paused/)).not.toBeInTheDocument();
  });

  it('says what the stream is doing: waiting for the pod, ended, or no realtime connection', async () => {
    const realtime = memoryRealtime();
    renderDialog(realtime.client);
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    realtime.emit('pod-logs.7.web-1', 'PodLogStatus', { state: 'waiting', message: 'container is waiting to start' });
    expect(within(dialog).getByText('Waiting for the pod to start writing its log. (container is waiting to start)')).toBeInTheDocument();
    realtime.emit('pod-logs.7.web-1', 'PodLogStatus', { state: 'ended', message: 'The pod no longer exists.' });
    expect(within(dialog).getByText('The pod no longer exists.')).toBeInTheDocument();
  });

  it('says why and stops listening when the server ends the subscription', async () => {
    const realtime = memoryRealtime();
    renderDialog(realtime.client);
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    realtime.emit('pod-logs.7.web-1', 'PodLogLines', { lines: lines(1, 1) });
    realtime.emit('pod-logs.7.web-1', 'SubscriptionEnded', { reason: 'access-ended', message: 'You no longer have access to this workspace.' });
    expect(within(dialog).getByText("You no longer have access to this pod's log.")).toBeInTheDocument();
    // The lines so far stay; nothing more is listened to.
    expect(within(dialog).getByTestId('pod-log-lines').textContent).toBe('line 1');
    expect(realtime.listening('pod-logs.7.web-1')).toEqual([]);
  });

  it('without a realtime connection it says live logs are not available', async () => {
    renderDialog(null);
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    expect(within(dialog).getByText('Live logs need the realtime connection, which is not available right now.')).toBeInTheDocument();
  });
});
