import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { AdminActivityList } from './activity/AdminActivityList';
import { AdminNodeList } from './nodes/AdminNodeList';
import { AdminNodeShow } from './nodes/AdminNodeShow';
import { AdminTeamList } from './teams/AdminTeamList';
import { AdminTeamShow } from './teams/AdminTeamShow';
import { AdminUserList } from './users/AdminUserList';
import { UserShow } from './users/UserShow';
import { AdminWorkspaceList } from './workspaces/AdminWorkspaceList';
import { AdminWorkspaceShow } from './workspaces/AdminWorkspaceShow';

/**
 * Platform admin lists (GET /api/admin/...; Laravel paginator). Named admin/... so that the
 * URLs are /admin/teams…, and canAccess allows them to platform admins only; App.tsx only
 * registers them for admins, so others get 'Unexpected Application Error!'.
 */
/** /admin/teams and /admin/teams/{id} (a child route, as the issue names the page). */
export const adminTeams: ResourceProps = {
  name: 'admin/teams',
  list: AdminTeamList,
  icon: GroupsOutlinedIcon,
  recordRepresentation: 'fullname',
  children: createElement(Route, { path: ':id', element: createElement(AdminTeamShow) }),
};
/** /admin/workspaces and /admin/workspaces/{id} (a child route, as for users and nodes). */
export const adminWorkspaces: ResourceProps = {
  name: 'admin/workspaces',
  list: AdminWorkspaceList,
  icon: WorkspacesOutlinedIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(AdminWorkspaceShow) }),
};
/** /admin/users and /admin/users/{id} (a child route, as for nodes; tabs do not change the path). */
export const adminUsers: ResourceProps = {
  name: 'admin/users',
  list: AdminUserList,
  icon: PeopleOutlineIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(UserShow) }),
};
export const adminActivity: ResourceProps = { name: 'admin/activity', list: AdminActivityList, icon: HistoryOutlinedIcon };

/** /admin/nodes and /admin/nodes/{name} (a child route: the spec's path, by name). */
export const adminNodes: ResourceProps = {
  name: 'admin/nodes',
  list: AdminNodeList,
  icon: DnsOutlinedIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(AdminNodeShow) }),
};

export const adminResources = [adminTeams, adminWorkspaces, adminUsers, adminNodes, adminActivity];
