import type { ResourceProps } from 'react-admin';
import adminActivity from './activity';
import adminNodes from './nodes';
import adminTeams from './teams';
import adminUsers from './users';
import adminWorkspaces from './workspaces';

/**
 * Platform admin lists (GET /api/admin/...; Laravel paginator), a folder per resource. Named
 * admin/... so that the URLs are /admin/teams…, and canAccess allows them to platform admins
 * only; ConsoleUI.tsx only registers them for admins, so others get the catch-all. This folder
 * groups resources: its index default-exports their list, in menu order.
 */
const adminResources: ResourceProps[] = [adminTeams, adminWorkspaces, adminUsers, adminNodes, adminActivity];

export default adminResources;
