import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { NotFound } from '../../pages/NotFound';
import { lazyNamed } from '../../utils/lazyNamed';

// Pages load with their resource (code splitting).
const WorkspaceShow = lazyNamed(() => import('./WorkspaceShow'), 'WorkspaceShow');

/**
 * Workspaces (sub-namespaces): GET /api/subnamespaces/{id}; created and joined through requests.
 * The workspace page is /workspaces/{id} (the product's URL), not react-admin's /workspaces/{id}/show, so
 * it is a child route; there is no list page.
 */
const workspaces: ResourceProps = {
  name: 'workspaces',
  recordRepresentation: 'label',
  children: [
    createElement(Route, { key: 'show', path: ':id', element: createElement(WorkspaceShow) }),
    createElement(Route, { key: 'none', path: '*', element: createElement(NotFound) }),
  ],
};

export default workspaces;
