/**
 * Teams (tenants): GET /api/tenants, GET /api/tenants/{id-or-name}. The team page is a custom
 * route (/teams/:id, spec §2); the new-team and join-team forms are pages (src/pages/teams/).
 */
export { TeamShow } from './TeamShow';
export type { TeamRecord } from './TeamShow';
