import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_NAME } from '../config.js';

const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

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
