import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../utils/lazyNamed';

// Pages load with their resource (issue 14: code splitting); non-admins never load them.
const AdminActivityList = lazyNamed(() => import('./activity/AdminActivityList'), 'AdminActivityList');
const AdminNodeList = lazyNamed(() => import('./nodes/AdminNodeList'), 'AdminNodeList');
const AdminNodeShow = lazyNamed(() => import('./nodes/AdminNodeShow'), 'AdminNodeShow');
const AdminTeamList = lazyNamed(() => import('./teams/AdminTeamList'), 'AdminTeamList');
const AdminTeamShow = lazyNamed(() => import('./teams/AdminTeamShow'), 'AdminTeamShow');
const AdminUserList = lazyNamed(() => import('./users/AdminUserList'), 'AdminUserList');
const UserShow = lazyNamed(() => import('./users/UserShow'), 'UserShow');
const AdminWorkspaceList = lazyNamed(() => import('./workspaces/AdminWorkspaceList'), 'AdminWorkspaceList');
const AdminWorkspaceShow = lazyNamed(() => import('./workspaces/AdminWorkspaceShow'), 'AdminWorkspaceShow');

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
