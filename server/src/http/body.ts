import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies: an empty body (some clients send `Content-Type: application/json` with
 * nothing after it on POST /logout) counts as no body, and a route with a body schema that
 * got no body validates `{}`, so the answer names each missing field rather than the body.
 */
export function installJsonBodies(app: FastifyInstance): void {
  // Fastify's own parser, which drops `__proto__` and `constructor.prototype` keys.
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.length === 0) return done(null, undefined);
    parseJson(request, text, done);
  });

  // Callback hooks here and in the other per-request hooks that never wait: an async hook costs a
  // promise and a microtask turn on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    if ((request.body === undefined || request.body === null) && request.routeOptions.schema?.body) {
      request.body = {};
    }
    done();
  });
}
