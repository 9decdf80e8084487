import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { Box, Button, Collapse, IconButton, Stack, Typography } from '@mui/material';
import { Menu as RaMenu, useSidebarState, useStore, useTranslate } from 'react-admin';
import { useCurrentUser } from '../hooks';
import type { UserWorkspace } from '../types';

interface TeamGroup {
  id: number;
  name: string;
  workspaces: UserWorkspace[];
}

/** The user's workspaces grouped by team (user.workspaces, plus teams without workspaces). */
export const groupWorkspaces = (
  teams: { id: number; name: string }[],
  workspaces: UserWorkspace[],
): TeamGroup[] => {
  const groups = new Map<number, TeamGroup>();
  for (const team of teams) groups.set(team.id, { id: team.id, name: team.name, workspaces: [] });
  for (const workspace of workspaces) {
    const team = workspace.team;
    if (!team) continue;
    if (!groups.has(team.id)) groups.set(team.id, { id: team.id, name: team.name, workspaces: [] });
    groups.get(team.id)!.workspaces.push(workspace);
  }
  return [...groups.values()]
    .filter((group) => group.workspaces.length > 0 || teams.some((team) => team.id === group.id))
    .sort((a, b) => a.name.localeCompare(b.name));
};

/**
 * Sidebar: the Workspaces tree grouped by team (spec §2). Team names link to /teams/{name},
 * workspaces to /workspaces/{id}; each team folds, 'Expand all' / 'Close all' act on all.
 */
export const WorkspacesTree = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const [sidebarOpen] = useSidebarState();
  const [closed, setClosed] = useStore<Record<string, boolean>>('sidebar.workspaces.closed', {});
  const groups = groupWorkspaces(user?.teams ?? [], user?.workspaces ?? []);

  if (!sidebarOpen) {
    return <RaMenu.Item to="/" primaryText="app.menu.workspaces" leftIcon={<WorkspacesOutlinedIcon />} />;
  }
  const setAll = (value: boolean) => setClosed(Object.fromEntries(groups.map((group) => [String(group.id), value])));

  return (
    <Box component="nav" aria-labelledby="sidebar-workspaces-title" sx={{ mt: 1 }}>
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
            <Button size="small" onClick={() => setAll(false)}>
              {translate('app.menu.expand_all')}
            </Button>
            <Button size="small" onClick={() => setAll(true)}>
              {translate('app.menu.close_all')}
            </Button>
          </Stack>
          {groups.map((group) => {
            const open = !closed[String(group.id)];
            const listId = `sidebar-team-${group.id}`;
            return (
              <Box key={group.id} data-team={group.name}>
                <Stack direction="row" sx={{ alignItems: 'center' }}>
                  <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                    <RaMenu.Item
                      to={`/teams/${encodeURIComponent(group.name)}`}
                      primaryText={group.name}
                      leftIcon={<GroupsOutlinedIcon />}
                    />
                  </Box>
                  <IconButton
                    size="small"
                    aria-expanded={open}
                    aria-controls={listId}
                    aria-label={translate(open ? 'app.menu.collapse_team' : 'app.menu.expand_team', { name: group.name })}
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
                        primaryText={workspace.label || workspace.name}
                        leftIcon={<WorkspacesOutlinedIcon fontSize="small" />}
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
