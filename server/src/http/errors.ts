import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { requestLocale, translateAnswer, translateStoredTexts } from '../i18n/messages.js';

/** Laravel's validation error bag: field name (as sent) → messages. */
export type FieldErrors = Record<string, string[]>;

export interface HttpErrorOptions {
  /** Field errors, for 422 answers. */
  errors?: FieldErrors;
  /** Extra members of the JSON body, e.g. `onboarding` on the onboarding gate's 403. */
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * An error that becomes a JSON answer `{message, errors?, ...body}` with its status.
 * Route handlers and rule functions throw these; the error handler sends them.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly body?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.errors = options.errors;
    this.body = options.body;
    this.headers = options.headers;
  }
}

export const unauthenticated = () =>
  new HttpError(401, 'Unauthenticated.', { headers: { 'WWW-Authenticate': 'Bearer' } });

export const notFound = () => new HttpError(404, 'Not found.');

/** 422 with Laravel's shape; `message` is the first field message, as Laravel does. */
export function validationError(errors: FieldErrors): HttpError {
  const first = Object.values(errors).find((messages) => messages.length > 0)?.[0];
  return new HttpError(422, first ?? 'The given data was invalid.', { errors });
}

/** 422 with a single message on one field. */
export const fieldError = (field: string, message: string) => validationError({ [field]: [message] });

/**
 * The wait a limit's message names, in whole minutes rounded up (a person reads "in 34 minutes",
 * not "in 2038 seconds"; rounding up never promises a retry that would still be refused); 0
 * when under a minute ("in less than a minute"). Retry-After keeps the exact seconds.
 */
export const minutesToWait = (seconds: number) => (seconds < 60 ? 0 : Math.ceil(seconds / 60));

// Each wording whole (not a sentence with a number slotted in), so that the catalogue gives
// each its French: French and English agree on "1 minute" / "2 minutes", but not on every form.
const tooManyAttemptsMessage = (seconds: number) => {
  const minutes = minutesToWait(seconds);
  return minutes === 0
    ? 'Too many attempts. Try again in less than a minute.'
    : minutes === 1
      ? 'Too many attempts. Try again in 1 minute.'
      : `Too many attempts. Try again in ${minutes} minutes.`;
};

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new HttpError(429, tooManyAttemptsMessage(retryAfterSeconds), {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

interface SchemaIssue {
  instancePath: string;
  message?: string;
}

/** Field errors from schema validation issues; `/a/0/b` becomes the field `a.0.b`. */
function fieldErrorsFromIssues(issues: SchemaIssue[]): { fields: FieldErrors; rootMessage?: string } {
  const fields: FieldErrors = {};
  let rootMessage: string | undefined;
  for (const issue of issues) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const message = issue.message ?? 'The value is invalid.';
    if (field === '') rootMessage ??= message;
    else (fields[field] ??= []).push(message);
  }
  return { fields, rootMessage };
}

/**
 * The field errors of a body the route's schema refused (`request.validationError` under
 * `attachValidation`), for a route that adds its own checks to the same answer.
 */
export function schemaFieldErrors(error: { validation?: SchemaIssue[] }): FieldErrors {
  return fieldErrorsFromIssues(error.validation ?? []).fields;
}

// Framework errors caused by the client, with messages for people rather than parsers.
const clientErrorMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

/**
 * The one place errors become answers: HttpError as is; schema validation → 422 with field
 * errors (→ 404 for path parameters: a malformed id names nothing); other client errors
 * → their 4xx with a plain message; anything else → 500 "Server error.", logged, with no
 * internals in the answer.
 */
export function installErrorHandler(app: FastifyInstance): void {
  // Messages in the request's language (Accept-Language, else the user's saved one): every
  // error answer's `message` and field `errors`, and the `message` of success answers (i18n/messages.ts).
  // Synchronous (done callback): it runs on every answer, most of which it leaves alone.
  app.addHook('preSerialization', (request, reply, payload: unknown, done) => {
    if (payload === null || typeof payload !== 'object') return done(null, payload);
    const locale = requestLocale(request);
    if (locale === 'en') return done(null, payload);
    // Texts the console stored in records (a request it denied itself: "The team was deleted.").
    const answer = translateStoredTexts(payload, locale);
    if (Array.isArray(answer)) return done(null, answer);
    // Success answers: their `message` ({message}, {message, user}), never an entity's (a request's
    // message is someone's text), and bulk answers' per-item messages ({results: [{message}]}).
    const hasMessage = typeof (answer as { message?: unknown }).message === 'string' && !('id' in answer);
    if (reply.statusCode < 400 && !hasMessage && !Array.isArray((answer as { results?: unknown }).results)) return done(null, answer);
    done(null, translateAnswer(answer, locale));
  });
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    // Every answer from here is JSON, also when the route had set another type (a CSV export
    // or a download failing before its first byte): else Fastify refuses the object payload
    // and answers its own 500 with internals.
    reply.removeHeader('content-disposition');
    reply.type('application/json; charset=utf-8');
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply
        .code(error.status)
        .send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}), ...error.body });
    }

    if ('validation' in error && Array.isArray(error.validation)) {
      if (error.validationContext === 'params') return reply.code(404).send({ message: 'Not found.' });
      const { fields, rootMessage } = fieldErrorsFromIssues(error.validation);
      if (Object.keys(fields).length === 0) {
        const message =
          error.validationContext === 'body' ? 'The request body must be a JSON object.' : rootMessage ?? 'Invalid request.';
        return reply.code(422).send({ message, errors: {} });
      }
      const answer = validationError(fields);
      return reply.code(422).send({ message: answer.message, errors: answer.errors });
    }

    if (error instanceof ZodError) {
      const { fields } = fieldErrorsFromIssues(
        error.issues.map((issue) => ({ instancePath: `/${issue.path.join('/')}`, message: issue.message })),
      );
      const answer = validationError(fields);
      return reply.code(422).send({ message: answer.message, errors: answer.errors });
    }

    const status = 'statusCode' in error ? error.statusCode : undefined;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = 'code' in error ? String(error.code) : '';
      return reply.code(status).send({ message: clientErrorMessages[code] ?? error.message });
    }

    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'Database unavailable');
      // Sent as JSON text, past the route's response schema: a route that documents a 503 of
      // its own (GET /readyz: {status, checks}) would otherwise refuse this body and answer 500
      // (when a hook before it, such as the bearer token lookup, met the outage).
      return reply
        .code(503)
        .header('retry-after', '5')
        .send(JSON.stringify({ message: 'The service is briefly unavailable. Try again in a few seconds.' }));
    }

    request.log.error({ err: error }, 'Unhandled error');
    return reply.code(500).send({ message: 'Server error.' });
  });
}

/**
 * For Fastify's `frameworkErrors` option: errors raised before routing (a malformed
 * percent-encoding in the path) skip the error handler; they get the same JSON shape.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.code(error.statusCode ?? 400).send({ message: 'The request address is malformed.' });
}

// PostgreSQL going away (restart, failover, network cut) is not the request's fault and not a
// bug: the pool reconnects on the next query, so the answer is 503 with a Retry-After.
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: admin shutdown,
// crash shutdown, cannot connect now), and the socket errors pg passes through.
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message));
}
