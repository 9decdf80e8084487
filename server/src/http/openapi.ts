import { existsSync, readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_NAME } from '../config/config.js';

/** The project's package.json: three levels up from server/src/http, two from build/server. */
function findPackageJson(): string {
  for (const relative of ['../../../package.json', '../../package.json']) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return readFileSync(url, 'utf8');
  }
  throw new Error('package.json not found next to the server');
}

const packageJson = JSON.parse(findPackageJson()) as { version: string };

/**
 * Collects every route's zod schemas into an OpenAPI document. Must be installed before the
 * routes; `installOpenApiRoute` then serves the document as JSON at GET /api/docs.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `${APP_NAME} API`,
        version: packageJson.version,
        description:
          'Laravel-style JSON API. Errors: 422 {message, errors: {field: [messages]}}, 401, 403, 404, 409, 429 with Retry-After. See docs/api-contract.md.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'ID|SECRET' } } },
    },
    transform: jsonSchemaTransform,
  });
}

export function installOpenApiRoute(app: FastifyInstance): void {
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
