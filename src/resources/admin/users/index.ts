import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../../utils/lazyNamed';

// Pages load with their resource (code splitting); non-admins never load them.
const AdminUserList = lazyNamed(() => import('./AdminUserList'), 'AdminUserList');
const UserShow = lazyNamed(() => import('./UserShow'), 'UserShow');

/** /admin/users and /admin/users/{id} (a child route, as for nodes; tabs do not change the path). */
const adminUsers: ResourceProps = {
  name: 'admin/users',
  list: AdminUserList,
  icon: PeopleOutlineIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(UserShow) }),
};

export default adminUsers;
