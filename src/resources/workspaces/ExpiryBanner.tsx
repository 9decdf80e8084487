import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { WorkspaceRecord } from './types';
import { dateLocale } from '../../utils/dates';

/** An alert whose action sits beside its text when there is room, under it otherwise. */
export const ALERT_WITH_ACTION = {
  flexWrap: 'wrap',
  '& .MuiAlert-message': { flex: '1 1 200px', minWidth: 0 },
  '& .MuiAlert-action': { pl: { xs: 0, sm: 2 }, ml: { xs: 0, sm: 'auto' }, mr: 0, alignItems: 'center' },
} as const;

/**
 * The workspace's end (docs/lifecycle.md), from the warning time before it: when it ends and
 * what follows; once ended, whether the suspension holds on the cluster yet. `action` (the
 * renewal button, for those who may ask) sits at its end.
 */
export const ExpiryBanner = ({ workspace, action }: { workspace: WorkspaceRecord; action?: ReactNode }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!workspace.ends_at || (workspace.status !== 'expiring' && workspace.status !== 'expired')) return null;
  // Day first, as the console's other dates.
  const date = new Date(workspace.ends_at).toLocaleString(dateLocale(locale), { dateStyle: 'long', timeStyle: 'short' });
  // The text takes the room beside the icon; the action goes under it on a phone rather than squeezing it.
  const sx = ALERT_WITH_ACTION;
  if (workspace.status === 'expiring') {
    return (
      <Alert severity="warning" action={action} sx={sx}>
        {translate('workspaces.expiry_expiring', { date })}
      </Alert>
    );
  }
  const key = workspace.suspension === 'suspending' ? 'workspaces.expiry_suspending' : 'workspaces.expiry_suspended';
  return (
    <Alert severity="error" action={action} sx={sx}>
      {translate(key, { date })}
    </Alert>
  );
};
