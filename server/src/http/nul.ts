import type { FastifyInstance } from 'fastify';
import { fieldError, notFound } from './errors.js';

// PostgreSQL text cannot hold NUL (U+0000): a query comparing a column with such a string fails
// in the database (a 500, on PostgreSQL only). Body fields refuse NUL in their schemas
// (http/schemas.ts); path parameters and query fields are checked here, for every route, once
// validated (so only what the route's schema kept): a parameter holding NUL names nothing (404),
// a query field holding it is a 422 on that field.

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(holdsNul);

export function installNulGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it never waits, and every request runs it (an async hook
  // costs a promise and a microtask turn per request).
  app.addHook('preHandler', (request, _reply, done) => {
    const params = request.params as Record<string, unknown> | null | undefined;
    if (params && Object.values(params).some(holdsNul)) return done(notFound());
    const query = request.query as Record<string, unknown> | null | undefined;
    const field = query ? Object.keys(query).find((key) => holdsNul(query[key])) : undefined;
    if (field !== undefined) return done(fieldError(field, `The ${field} field contains an invalid character.`));
    done();
  });
}
