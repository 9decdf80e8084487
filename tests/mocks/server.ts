import { setupServer } from 'msw/node';
import { adminUserHandlers } from './adminUsers';
import { handlers } from './handlers';
import { nodeHandlers } from './nodes';
import { requestHandlers } from './requests';

/** msw in Node: every request the console makes in tests must match a handler. */
// The nodes handlers come first: /api/admin/nodes is more specific than /api/admin/:list.
// The requests handlers too: their GET /api/requests (filters, sort) replaces the plain one.
// The admin user handlers too: /api/admin/users/{id} and /bulk.
export const server = setupServer(...adminUserHandlers, ...nodeHandlers, ...requestHandlers, ...handlers);
