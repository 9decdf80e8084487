import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { Box, Button, Chip, Collapse, IconButton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Menu as RaMenu, useSidebarState, useStore, useTranslate } from 'react-admin';
import { useCurrentUser } from '../hooks';
import type { SuspendedTeam, UserWorkspace } from '../types';

interface TeamGroup {
  id: number;
  name: string;
  workspaces: Pick<UserWorkspace, 'id' | 'name' | 'label'>[];
  /** Suspended by the platform admins (GET /user `suspended_teams`): shown, marked, not usable. */
  suspended?: boolean;
}

/**
 * The user's workspaces grouped by team (user.workspaces, plus teams without workspaces), and
 * their suspended teams with their workspaces there, marked.
 */
export const groupWorkspaces = (
  teams: { id: number; name: string }[],
  workspaces: UserWorkspace[],
  suspended: SuspendedTeam[] = [],
): TeamGroup[] => {
  const groups = new Map<number, TeamGroup>();
  for (const team of teams) groups.set(team.id, { id: team.id, name: team.name, workspaces: [] });
  for (const workspace of workspaces) {
    const team = workspace.team;
    if (!team) continue;
    if (!groups.has(team.id)) groups.set(team.id, { id: team.id, name: team.name, workspaces: [] });
    groups.get(team.id)!.workspaces.push(workspace);
  }
  for (const team of suspended) {
    if (!groups.has(team.id)) groups.set(team.id, { id: team.id, name: team.name, workspaces: team.workspaces, suspended: true });
  }
  return [...groups.values()]
    .filter((group) => group.workspaces.length > 0 || group.suspended || teams.some((team) => team.id === group.id))
    .sort((a, b) => a.name.localeCompare(b.name));
};

/** A name with the 'Suspended' mark after it (the menu item's accessible name says it too). */
const Marked = ({ name, mark }: { name: string; mark: string }) => (
  <Stack component="span" direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
    <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', color: 'text.secondary' }}>
      {name}
    </Box>
    <Chip component="span" size="small" variant="outlined" color="warning" label={mark} sx={{ height: 20, fontSize: '0.7rem', flexShrink: 0 }} />
  </Stack>
);

/**
 * Sidebar: the Workspaces tree grouped by team.
 * It sits inside react-admin's menu (a `role="menu"` list), where only menu items, groups and
 * separators are valid children (axe's aria-required-children): 'Expand all' and 'Close all'
 * are menu items, and each team's fold control a checkable one ('Show the workspaces of X',
 * checked while shown), so that the team's own link stays the only menu item named after it. Team names link to /teams/{name},
 * workspaces to /workspaces/{id}; each team folds, 'Expand all' / 'Close all' act on all. A
 * suspended team and its workspaces stay in the tree, marked 'Suspended' and greyed: their
 * pages say what that means.
 */
export const WorkspacesTree = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const [sidebarOpen] = useSidebarState();
  const [closed, setClosed] = useStore<Record<string, boolean>>('sidebar.workspaces.closed', {});
  const groups = groupWorkspaces(user?.teams ?? [], user?.workspaces ?? [], user?.suspended_teams ?? []);
  const suspendedMark = translate('app.menu.suspended');
  const text = (name: string, suspended?: boolean): ReactNode => (suspended ? <Marked name={name} mark={suspendedMark} /> : name);

  if (!sidebarOpen) {
    return <RaMenu.Item to="/" primaryText="app.menu.workspaces" leftIcon={<WorkspacesOutlinedIcon />} />;
  }
  const setAll = (value: boolean) => setClosed(Object.fromEntries(groups.map((group) => [String(group.id), value])));

  return (
    <Box role="group" aria-labelledby="sidebar-workspaces-title" sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 2 }}>
        <Typography id="sidebar-workspaces-title" variant="overline" sx={{ flexGrow: 1, color: 'text.secondary' }}>
          {translate('app.menu.workspaces')}
        </Typography>
      </Stack>
      {groups.length === 0 ? (
        <Typography variant="body2" sx={{ px: 2, py: 0.5, color: 'text.secondary' }}>
          {translate('app.menu.no_workspaces')}
        </Typography>
      ) : (
        <>
          <Stack direction="row" spacing={0.5} sx={{ px: 1.5 }}>
            <Button size="small" role="menuitem" onClick={() => setAll(false)}>
              {translate('app.menu.expand_all')}
            </Button>
            <Button size="small" role="menuitem" onClick={() => setAll(true)}>
              {translate('app.menu.close_all')}
            </Button>
          </Stack>
          {groups.map((group) => {
            const open = !closed[String(group.id)];
            const listId = `sidebar-team-${group.id}`;
            return (
              <Box key={group.id} data-team={group.name} data-suspended={group.suspended ? 'true' : undefined}>
                <Stack direction="row" sx={{ alignItems: 'center' }}>
                  <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                    <RaMenu.Item
                      to={`/teams/${encodeURIComponent(group.name)}`}
                      primaryText={text(group.name, group.suspended)}
                      leftIcon={<GroupsOutlinedIcon />}
                      aria-label={group.suspended ? translate('app.menu.suspended_team', { name: group.name }) : undefined}
                    />
                  </Box>
                  <IconButton
                    size="small"
                    role="menuitemcheckbox"
                    aria-checked={open}
                    aria-controls={listId}
                    aria-label={translate('app.menu.expand_team', { name: group.name })}
                    onClick={() => setClosed({ ...closed, [String(group.id)]: open })}
                    sx={{ mr: 1 }}
                  >
                    {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
                  </IconButton>
                </Stack>
                <Collapse in={open} id={listId} unmountOnExit>
                  {group.workspaces.length === 0 ? (
                    <Typography variant="body2" sx={{ pl: 7, py: 0.5, color: 'text.secondary' }}>
                      {translate('app.menu.no_workspaces')}
                    </Typography>
                  ) : (
                    group.workspaces.map((workspace) => (
                      <RaMenu.Item
                        key={workspace.id}
                        to={`/workspaces/${workspace.id}`}
                        primaryText={text(workspace.label || workspace.name, group.suspended)}
                        leftIcon={<WorkspacesOutlinedIcon fontSize="small" />}
                        aria-label={
                          group.suspended ? translate('app.menu.suspended_workspace', { name: workspace.label || workspace.name }) : undefined
                        }
                        sx={{ pl: 4 }}
                      />
                    ))
                  )}
                </Collapse>
              </Box>
            );
          })}
        </>
      )}
    </Box>
  );
};
