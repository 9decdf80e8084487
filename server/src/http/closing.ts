import type { FastifyInstance } from 'fastify';

/**
 * Graceful stop over keep-alive connections. `app.close()` stops accepting connections and
 * closes the idle ones, then waits for every open connection to end; a connection busy with a
 * request at that moment would otherwise stay open (idle, kept alive by the client or the load
 * balancer) after its answer, and the stop would hang until the process is killed. Once closing
 * has begun, every answer says `Connection: close`, so each connection ends with its last answer.
 */
export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // A callback hook (every answer runs it; it never waits).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
