import { Alert } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { WorkspaceRecord } from './types';

/**
 * The workspace's end (docs/lifecycle.md), from the warning time before it: when it ends and
 * what follows; once ended, whether the suspension holds on the cluster yet.
 */
export const ExpiryBanner = ({ workspace }: { workspace: WorkspaceRecord }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!workspace.ends_at || (workspace.status !== 'expiring' && workspace.status !== 'expired')) return null;
  const date = new Date(workspace.ends_at).toLocaleString(locale, { dateStyle: 'long', timeStyle: 'short' });
  if (workspace.status === 'expiring') return <Alert severity="warning">{translate('workspaces.expiry_expiring', { date })}</Alert>;
  const key = workspace.suspension === 'suspending' ? 'workspaces.expiry_suspending' : 'workspaces.expiry_suspended';
  return <Alert severity="error">{translate(key, { date })}</Alert>;
};
