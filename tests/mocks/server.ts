import { setupServer } from 'msw/node';
import { adminUserHandlers } from './adminUsers';
import { handlers } from './handlers';
import { invitationHandlers } from './invitations';
import { nodeHandlers } from './nodes';
import { requestHandlers } from './requests';
import { usageHandlers } from './usage';

/** msw in Node: every request the console makes in tests must match a handler. */
// The nodes handlers come first: /api/admin/nodes is more specific than /api/admin/:list.
// The requests handlers too: their GET /api/requests (filters, sort) replaces the plain one.
// The admin user handlers too: /api/admin/users/{id} and /bulk.
// The usage handlers too: /api/subnamespaces/near-limit before /api/subnamespaces/{id}.
// The invitation and identity handlers too: /api/admin/users/{id}/identities before /api/admin/users/{id}.
export const server = setupServer(...invitationHandlers, ...adminUserHandlers, ...nodeHandlers, ...requestHandlers, ...usageHandlers, ...handlers);
