import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { lazyNamed } from '../../utils/lazyNamed';

// Pages load with their resource (code splitting keeps the first load small).
const NodeList = lazyNamed(() => import('./NodeList'), 'NodeList');
const NodeCreate = lazyNamed(() => import('./NodeCreate'), 'NodeCreate');
const NodeShow = lazyNamed(() => import('./NodeShow'), 'NodeShow');

/**
 * The user's nodes (docs/nodes-contract.md): /nodes (GET /api/nodes), /nodes/create
 * (POST /api/nodes) and /nodes/{id or name}: the detail is the spec's path, not react-admin's
 * /nodes/{id}/show, so it is a child route of the resource.
 */
const nodes: ResourceProps = {
  name: 'nodes',
  list: NodeList,
  create: NodeCreate,
  icon: DevicesOtherOutlinedIcon,
  recordRepresentation: (record) => record.name ?? `#${record.id}`,
  children: createElement(Route, { path: ':id', element: createElement(NodeShow) }),
};

export default nodes;
