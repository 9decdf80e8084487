import { setupServer } from 'msw/node';
import { handlers } from './handlers';
import { nodeHandlers } from './nodes';

/** msw in Node: every request the console makes in tests must match a handler. */
// The nodes handlers come first: /api/admin/nodes is more specific than /api/admin/:list.
export const server = setupServer(...nodeHandlers, ...handlers);
