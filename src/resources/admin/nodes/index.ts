import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../../utils/lazyNamed';

// Pages load with their resource (code splitting); non-admins never load them.
const AdminNodeList = lazyNamed(() => import('./AdminNodeList'), 'AdminNodeList');
const AdminNodeShow = lazyNamed(() => import('./AdminNodeShow'), 'AdminNodeShow');

/** /admin/nodes and /admin/nodes/{name} (a child route: the spec's path, by name). */
const adminNodes: ResourceProps = {
  name: 'admin/nodes',
  list: AdminNodeList,
  icon: DnsOutlinedIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: ':id', element: createElement(AdminNodeShow) }),
};

export default adminNodes;
