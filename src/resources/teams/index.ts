import { createElement } from 'react';
import type { ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { NotFound } from '../../pages/NotFound';
import { lazyNamed } from '../../utils/lazyNamed';

// Pages load with their resource (code splitting).
const TeamShow = lazyNamed(() => import('./TeamShow'), 'TeamShow');

/**
 * Teams: GET /api/tenants, GET /api/tenants/{id-or-name} (the data provider maps the console's
 * 'teams' onto the API's Laravel-era /api/tenants). The team page is /teams/{id or name}
 * (the product's URL), not react-admin's /teams/{id}/show, so it is a child route; there is no list page.
 * The new-team and join-team forms (/team/registration, /team/join) are custom routes of
 * ConsoleUI.tsx.
 */
const teams: ResourceProps = {
  name: 'teams',
  recordRepresentation: 'name',
  children: [
    createElement(Route, { key: 'show', path: ':id', element: createElement(TeamShow) }),
    createElement(Route, { key: 'none', path: '*', element: createElement(NotFound) }),
  ],
};

export default teams;
