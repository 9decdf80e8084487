import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../../utils/lazyNamed';

// Pages load with their resource (code splitting); non-admins never load them.
const AdminWorkspaceList = lazyNamed(() => import('./AdminWorkspaceList'), 'AdminWorkspaceList');
const AdminWorkspaceShow = lazyNamed(() => import('./AdminWorkspaceShow'), 'AdminWorkspaceShow');

/** /admin/workspaces and /admin/workspaces/{id} (a child route, as for users and nodes). */
const adminWorkspaces: ResourceProps = {
  name: 'admin/workspaces',
  list: AdminWorkspaceList,
  icon: WorkspacesOutlinedIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(AdminWorkspaceShow) }),
};

export default adminWorkspaces;
