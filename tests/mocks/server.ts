import { setupServer } from 'msw/node';
import { handlers } from './handlers';

/** msw in Node: every request the console makes in tests must match a handler. */
export const server = setupServer(...handlers);
