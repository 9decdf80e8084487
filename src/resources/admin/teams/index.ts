import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../../utils/lazyNamed';

// Pages load with their resource (code splitting); non-admins never load them.
const AdminTeamList = lazyNamed(() => import('./AdminTeamList'), 'AdminTeamList');
const AdminTeamShow = lazyNamed(() => import('./AdminTeamShow'), 'AdminTeamShow');

/** /admin/teams and /admin/teams/{id} (a child route, as the page is named /admin/teams/{id}). */
const adminTeams: ResourceProps = {
  name: 'admin/teams',
  list: AdminTeamList,
  icon: GroupsOutlinedIcon,
  recordRepresentation: 'fullname',
  children: createElement(Route, { path: ':id', element: createElement(AdminTeamShow) }),
};

export default adminTeams;
