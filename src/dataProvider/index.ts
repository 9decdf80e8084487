import type { DataProvider } from 'react-admin';
import type { HttpClient } from '../httpClient';
import { type AdminMethods, adminMethods } from './admin';
import { createCrudProvider, endpoints, type ResourceEndpoint } from './crud';
import { type NodeMethods, nodeMethods } from './nodes';
import { type ProfileMethods, profileMethods } from './profile';
import { type RequestMethods, requestMethods } from './requests';
import { type TeamMethods, teamMethods } from './teams';
import { type UsageMethods, usageMethods } from './usage';
import { type WorkspaceMethods, workspaceMethods } from './workspaces';

// The console's one data provider: every call of the console to the API goes through it
// (components reach it with useDataProvider<ConsoleDataProvider>()), except the auth provider's
// and the realtime client's. It is react-admin's CRUD methods (crud.ts, with the resource → path
// map) and the calls that are not CRUD, grouped by area, each named for what it does.
//
// The one other door is the auth provider (src/authProvider.ts, reached with useTestbedAuth()):
// the session (login, logout, the user's identity), registration, verification, password, and
// the calls of the screens the logged-out bundle shows too, since that bundle has react-admin's
// auth context but no data provider: the institutional sign-in (its providers, the code
// exchange, a token's user, ending a token's session) and the invitation link (preview,
// joining). Both build on the same http client (src/httpClient.ts); no component calls fetch.
// Only the settings are fetched without it, at start, as they say where the API is.

export type ConsoleDataProvider = DataProvider &
  RequestMethods &
  TeamMethods &
  WorkspaceMethods &
  UsageMethods &
  NodeMethods &
  ProfileMethods &
  AdminMethods;

export const createDataProvider = (http: HttpClient, map: Record<string, ResourceEndpoint> = endpoints): ConsoleDataProvider => ({
  ...createCrudProvider(http, map),
  ...requestMethods(http),
  ...teamMethods(http),
  ...workspaceMethods(http),
  ...usageMethods(http),
  ...nodeMethods(http),
  ...profileMethods(http),
  ...adminMethods(http, map),
});

export { endpoints, listOnClient, paginatorQuery, SERVER_MAX_PER_PAGE, valueAt, type ResourceEndpoint } from './crud';
