import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import type { ResourceProps } from 'react-admin';
import { AdminActivityList } from './activity/AdminActivityList';
import { AdminTeamList } from './teams/AdminTeamList';
import { AdminUserList } from './users/AdminUserList';
import { AdminWorkspaceList } from './workspaces/AdminWorkspaceList';

/**
 * Platform admin lists (GET /api/admin/...; Laravel paginator). Named admin/... so that the
 * URLs are /admin/teams…, and canAccess allows them to platform admins only; App.tsx only
 * registers them for admins, so others get 'Unexpected Application Error!'.
 */
export const adminTeams: ResourceProps = { name: 'admin/teams', list: AdminTeamList, icon: GroupsOutlinedIcon };
export const adminWorkspaces: ResourceProps = { name: 'admin/workspaces', list: AdminWorkspaceList, icon: WorkspacesOutlinedIcon };
export const adminUsers: ResourceProps = { name: 'admin/users', list: AdminUserList, icon: PeopleOutlineIcon };
export const adminActivity: ResourceProps = { name: 'admin/activity', list: AdminActivityList, icon: HistoryOutlinedIcon };

export const adminResources = [adminTeams, adminWorkspaces, adminUsers, adminActivity];
