// The app's per-request parts, in the order buildApp installs them (server/src/app.ts): what
// `npm run bench -- hooks` adds one at a time (bench/hooksServer.ts installs them).
export const HOOK_LAYERS = [
  { name: 'answers', label: 'zod schemas: query validation, the compiled answer serialiser' },
  { name: 'logger', label: "pino as the server's logger (a child logger per request)" },
  { name: 'errors', label: 'the error handler and the request log (errors and slow requests)' },
  { name: 'small', label: 'JSON bodies, the NUL guard, the graceful close, the canonical address' },
  { name: 'security', label: 'the security headers (@fastify/helmet)' },
  { name: 'openapi', label: 'the OpenAPI document (@fastify/swagger)' },
  { name: 'rateLimit', label: '@fastify/rate-limit, limits off as the bench runs' },
  { name: 'authentication', label: "authentication: the bearer token and its user (one query)" },
  { name: 'onboarding', label: 'the onboarding gate: verified, the policy accepted (the policy in force is read every 5 s)' },
  { name: 'metric', label: 'the request duration metric (prom-client)' },
] as const;

export type HookLayer = (typeof HOOK_LAYERS)[number];
