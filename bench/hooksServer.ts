// One server of `npm run bench -- hooks` (bench/hooks.ts): a Fastify server answering
// GET /api/probe with a small object, with the first HOOKS_LAYERS of the app's per-request parts
// installed as buildApp installs them (server/src/app.ts), in its order. HOOKS_DATABASE_URL: the
// bench's database, holding the user of the bearer token every request carries. HOOKS_ANSWERS=zod:
// answers written by the zod type provider's serialiser instead of the compiled one. Prints its
// port once it listens.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { validatorCompiler, serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { z } from 'zod';
import { loadConfig } from '../server/src/config/config.js';
import { createDatabase } from '../server/src/db/database.js';
import { answerSerializerCompiler } from '../server/src/http/answerSerializer.js';
import { installAuthentication } from '../server/src/http/authenticate.js';
import { installJsonBodies } from '../server/src/http/body.js';
import { installCanonicalAddress } from '../server/src/http/canonicalAddress.js';
import { installGracefulClose } from '../server/src/http/closing.js';
import { installDurationMetric } from '../server/src/http/durationMetric.js';
import { installErrorHandler } from '../server/src/http/errors.js';
import { installNulGuard } from '../server/src/http/nul.js';
import { installOnboardingGate } from '../server/src/http/onboarding.js';
import { installOpenApi } from '../server/src/http/openapi.js';
import { installRateLimiting } from '../server/src/http/rateLimit.js';
import { installRequestLog } from '../server/src/http/requestLog.js';
import { installSecurityHeaders } from '../server/src/http/security.js';
import { createMetrics } from '../server/src/health/metrics.js';
import { policyStandingNow } from '../server/src/policy/inForce.js';
import { authenticateToken } from '../server/src/tokens/tokens.js';
import { HOOK_LAYERS, type HookLayer } from './hookLayers.js';

const layers = new Set(HOOK_LAYERS.slice(0, Number(process.env.HOOKS_LAYERS)).map((layer) => layer.name));
const has = (name: HookLayer['name']) => layers.has(name);
const config = loadConfig({ ...process.env, APP_URL: 'http://127.0.0.1', RATE_LIMITS: 'off' }, { envFile: null });
const db = createDatabase(process.env.HOOKS_DATABASE_URL!);

const app: FastifyInstance = Fastify({
  // The app logs as `npm start` runs it: pino, asynchronously, here into /dev/null.
  loggerInstance: has('logger') ? (pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false })) as FastifyBaseLogger) : undefined,
  logController: new LogController({ disableRequestLogging: true }),
});
if (has('answers')) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(process.env.HOOKS_ANSWERS === 'zod' ? zodSerializerCompiler : answerSerializerCompiler({ checked: false }));
}
if (has('errors')) {
  installErrorHandler(app);
  installRequestLog(app, { mode: 'errors', slowMs: 1000 });
}
if (has('small')) {
  installJsonBodies(app);
  installNulGuard(app);
  installGracefulClose(app);
  installCanonicalAddress(app, config.appUrl);
}
if (has('security')) await installSecurityHeaders(app, null);
if (has('openapi')) await installOpenApi(app);
if (has('rateLimit')) await installRateLimiting(app, null);
if (has('authentication')) {
  installAuthentication(
    app,
    (bearer) => authenticateToken(db, bearer),
    async (user) => (await policyStandingNow(db, config.lifecycleDefaults, user, new Date())).required,
  );
}
if (has('onboarding')) installOnboardingGate(app);
if (has('metric')) installDurationMetric(app, createMetrics().httpDuration);

const answer = { name: 'Testbed Console', locale: 'en', registration: true, realtime: { key: 'console', port: 8080 } };
const answerSchema = z.object({
  name: z.string(),
  locale: z.string(),
  registration: z.boolean(),
  realtime: z.object({ key: z.string(), port: z.number() }),
});
app.get('/api/probe', has('answers') ? { schema: { response: { 200: answerSchema } } } : {}, async () => answer);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : address);
process.on('SIGTERM', () => {
  void app.close().then(() => db.destroy()).then(() => process.exit(0));
});
