/**
 * Workspaces (sub-namespaces): GET /api/subnamespaces/{id}; created and joined through requests.
 * Routed as a custom route (/workspaces/:id, spec §2) rather than react-admin's /:id/show.
 */
export { WorkspaceShow } from './WorkspaceShow';
export type { WorkspaceRecord } from './WorkspaceShow';
export { WorkspaceCreateDialog, WorkspaceCreateForm } from './WorkspaceCreate';
