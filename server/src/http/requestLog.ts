import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface RequestLogOptions {
  /** `all`: a line per request; `errors`: answers of 500 and above and slow requests only. */
  mode: 'all' | 'errors';
  /** A request that took longer than this is logged (as a warning) in either mode. */
  slowMs: number;
}

/**
 * Request logging, in place of Fastify's two lines per request ("incoming request" and
 * "request completed", disabled in app.ts). One line at most, written when the answer is sent:
 * method, path (without the query string, which may hold search terms or signatures), status,
 * duration. Errors are logged with their stack by the error handler (http/errors.ts). The
 * console's own files (its page and its assets, a dozen per visit) are not logged unless they
 * fail or are slow: the log is the API's, where mails and errors can be found.
 */
export function installRequestLog(app: FastifyInstance, options: RequestLogOptions): void {
  // A callback hook (every answer runs it; it never waits).
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    logAnswer(request, reply, options);
    done();
  });
}

function logAnswer(request: FastifyRequest, reply: FastifyReply, options: RequestLogOptions): void {
  const ms = reply.elapsedTime;
  const status = reply.statusCode;
  const slow = ms > options.slowMs;
  if (options.mode === 'errors' && status < 500 && !slow) return;
  if (isConsoleFile(request) && status < 400 && !slow) return;
  const entry = { method: request.method, path: loggedPath(request), status, ms: Math.round(ms * 10) / 10 };
  const text = `${entry.method} ${entry.path} ${status} ${entry.ms} ms`;
  if (status >= 500) request.log.error(entry, text);
  else if (slow) request.log.warn(entry, `${text} (slow)`);
  else request.log.info(entry, text);
}

/**
 * A file of the built console: a static file (@fastify/static's wildcard route) or the console
 * page, which the not-found handler sends for any other page path (no route of its own).
 */
const isConsoleFile = (request: FastifyRequest) => request.routeOptions.url === '/*' || request.routeOptions.url === undefined;

/** Path parameters that are secrets (mailed links' signatures, agent secrets): never logged. */
const SECRET_PARAMETERS = /^(signature|hash|token|secret|code)$/i;

function loggedPath(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  let path = query === -1 ? request.url : request.url.slice(0, query);
  const params = request.params as Record<string, unknown> | undefined;
  if (params && typeof params === 'object') {
    for (const [name, value] of Object.entries(params)) {
      if (SECRET_PARAMETERS.test(name) && typeof value === 'string' && value.length > 0) path = path.split(value).join('…');
    }
  }
  return path;
}
