import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { Card, CardContent, IconButton, List, ListItem, ListItemText, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useNavigate } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { RoleChip } from '../../components/RoleChip';
import { useCurrentUser, useRefreshRequests } from '../../hooks';
import { serverMessage } from '../../httpClient';
import type { WorkspaceRecord } from './types';

type Member = NonNullable<WorkspaceRecord['users']>[number];

/**
 * The workspace's users with their role. Those who manage the workspace may remove a member,
 * and every member may leave; both ask first, since the person's kubeconfigs stop working.
 */
export const WorkspaceMembers = ({ workspace }: { workspace: WorkspaceRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefreshRequests();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [working, setWorking] = useState(false);
  const users = workspace.users ?? [];
  const leaving = removing?.id === user?.id;

  const remove = async () => {
    if (!removing) return;
    setWorking(true);
    try {
      await dataProvider.removeWorkspaceMember(workspace.id, removing.id);
      notify(leaving ? 'workspaces.left' : 'workspaces.member_removed', { type: 'info', messageArgs: { name: removing.name } });
      setRemoving(null);
      await refresh();
      if (leaving) navigate('/');
    } catch (error) {
      const message = serverMessage(error, 'workspaces.remove_error');
      notify(translate(message, { _: message }), { type: 'error' });
    } finally {
      setWorking(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="workspace-users-title">
      <CardContent>
        <Typography id="workspace-users-title" variant="h6" component="h2" gutterBottom>
          {translate('workspaces.users')}
        </Typography>
        {users.length === 0 ? (
          <EmptyState title={translate('workspaces.no_users')} />
        ) : (
          <List dense disablePadding aria-label={translate('workspaces.users')}>
            {users.map((item) => {
              const self = item.id === user?.id;
              const mayRemove = self || !!workspace.can_manage;
              const label = translate(self ? 'workspaces.leave' : 'workspaces.remove_member', { name: item.name });
              return (
                <ListItem
                  key={item.id}
                  disableGutters
                  secondaryAction={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <RoleChip role={item.pivot?.role} />
                      {mayRemove && (
                        <Tooltip title={label}>
                          <IconButton edge="end" size="small" aria-label={label} onClick={() => setRemoving(item)}>
                            <PersonRemoveIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </Stack>
                  }
                >
                  <ListItemText primary={item.name} />
                </ListItem>
              );
            })}
          </List>
        )}
      </CardContent>
      <ConfirmDialog
        isOpen={!!removing}
        loading={working}
        title={translate(leaving ? 'workspaces.leave_title' : 'workspaces.remove_title', { name: removing?.name ?? '' })}
        content={translate(leaving ? 'workspaces.leave_body' : 'workspaces.remove_body', { name: removing?.name ?? '' })}
        confirm={translate(leaving ? 'workspaces.leave_confirm' : 'workspaces.remove_confirm')}
        destructive
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
};
