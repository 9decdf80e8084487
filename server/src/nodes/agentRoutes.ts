import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { NodeRecord } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { routeRateLimit } from '../http/rateLimit.js';
import { bearerAuth, messageSchema } from '../http/schemas.js';
import { buildNodeSeedImage } from './install/cidataImage.js';
import { renderInstallScript } from './install/installScript.js';
import { findNodeBySecret, issueBootstrapToken, recordAgentStep, recordHeartbeat, refreshClaimCode, registerMachine } from './agent.js';
import { presentedStatus } from './presenter.js';
import { nodeRateLimits, nodeServices } from './records.js';
import { agentRegisterBody, agentReportBody, NODE_STATUSES } from './schemas.js';

// The node agent's protocol (docs/nodes-contract.md, "Agent protocol"): root paths, not under
// /api and not behind the onboarding gate; the machine proves itself with its node secret
// (`Authorization: Bearer tbn_…`), never with a user's token.

const tags = ['node agent'];
// A bearer token too, but the node's secret (tbn_…), not a user's token.
const nodeSecurity = bearerAuth;

/** The agent's node; 401 `Unauthenticated.` for a missing, malformed or unknown secret, 403 when its owner is disabled. */
async function agentNode(context: AppContext, request: FastifyRequest): Promise<NodeRecord> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  const node = await findNodeBySecret(context.db, match?.[1]);
  // Without WWW-Authenticate: the agent is a script, not a browser.
  if (!node) throw new HttpError(401, 'Unauthenticated.');
  // A platform admin disabled the owner's account (admin/userBatch.ts): their machines wait,
  // untouched, until the account is enabled again.
  if (node.owner_id !== null) {
    const owner = await context.db.selectFrom('users').select('enabled').where('id', '=', node.owner_id).executeTakeFirst();
    if (owner?.enabled !== 1) throw new HttpError(403, OWNER_DISABLED);
  }
  return node;
}

export const OWNER_DISABLED = "This node's owner account is disabled: the console refuses its agent until a platform admin enables the account again.";

const SHELL_SCRIPT = 'text/x-shellscript; charset=utf-8';

export function agentRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { config } = context;
  const limits = nodeRateLimits(config);

  return async (app) => {
    const services = nodeServices(context, app.log);

    app.get(
      '/agent/install/:secret',
      { schema: { tags, summary: 'The install script bound to one node (its secret is in the path)', params: z.object({ secret: z.string().max(200) }) } },
      async (request, reply) => {
        const node = await findNodeBySecret(context.db, request.params.secret);
        reply.header('Cache-Control', 'no-store');
        if (!node) return reply.code(404).type('text/plain; charset=utf-8').send('Unknown installation link.\n');
        return reply.type(SHELL_SCRIPT).send(renderInstallScript({ appUrl: config.appUrl, secret: request.params.secret }));
      },
    );

    app.get('/agent/install', { schema: { tags, summary: 'The generic install script: the machine registers itself and shows a code to claim it' } }, async (_request, reply) =>
      reply.type(SHELL_SCRIPT).header('Cache-Control', 'no-store').send(renderInstallScript({ appUrl: config.appUrl, secret: null })),
    );

    app.get(
      '/agent/image',
      { schema: { tags, summary: 'The generic cloud-init seed image (FAT, label CIDATA): runs the generic install on first boot' } },
      async (_request, reply) =>
        reply
          .type('application/octet-stream')
          .header('Content-Disposition', 'attachment; filename="testbed-node-cidata.img"')
          .send(buildNodeSeedImage({ appUrl: config.appUrl, secret: null })),
    );

    app.post(
      '/agent/register',
      {
        schema: {
          tags,
          summary: 'Machine first: register without an owner; answers the node secret and a code to claim the machine in the console',
          body: agentRegisterBody,
          response: { 201: z.object({ secret: z.string(), code: z.string(), code_expires_at: z.string(), poll_seconds: z.number() }) },
        },
        config: { rateLimit: routeRateLimit(limits?.agentRegister, (request) => request.ip) },
      },
      async (request, reply) => {
        const registered = await registerMachine(services, request.body.facts);
        return reply.code(201).send({ secret: registered.secret, code: registered.code, code_expires_at: registered.codeExpiresAt, poll_seconds: 5 });
      },
    );

    app.get(
      '/agent/node',
      {
        schema: {
          tags,
          summary: 'What the agent needs to know of its node; an unclaimed machine gets a new code when its code expired',
          security: nodeSecurity,
          response: {
            200: z.object({
              id: z.number(),
              claimed: z.boolean(),
              status: z.enum(NODE_STATUSES),
              name: z.string().nullable(),
              code: z.string().nullable(),
              code_expires_at: z.string().nullable(),
            }),
            401: messageSchema,
          },
        },
      },
      async (request) => {
        const node = await refreshClaimCode(services, await agentNode(context, request));
        return {
          id: node.id,
          claimed: node.owner_id !== null,
          status: presentedStatus(node),
          name: node.name,
          code: node.owner_id === null ? node.claim_code : null,
          code_expires_at: node.owner_id === null ? node.claim_code_expires_at : null,
        };
      },
    );

    app.post(
      '/agent/report',
      {
        schema: {
          tags,
          summary: 'An install step (checkin, installing, joined, failed), with system facts',
          security: nodeSecurity,
          body: agentReportBody,
          response: { 200: z.object({ ok: z.literal(true) }), 401: messageSchema },
        },
        // The secret is checked before the body, so a stranger learns nothing from validation.
        preValidation: async (request) => {
          await agentNode(context, request);
        },
      },
      async (request) => {
        const node = await agentNode(context, request);
        await recordAgentStep(services, node.id, request.body);
        return { ok: true as const };
      },
    );

    app.post(
      '/agent/bootstrap',
      {
        schema: {
          tags,
          summary: 'A short-lived kubeadm bootstrap token and what `kubeadm join` needs with it',
          security: nodeSecurity,
          response: {
            200: z.object({ token: z.string(), ca_cert_hash: z.string(), api_server: z.string(), node_name: z.string(), expires_at: z.string() }),
            401: messageSchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return issueBootstrapToken(services, await agentNode(context, request));
      },
    );

    app.post(
      '/agent/heartbeat',
      { schema: { tags, summary: 'The agent is alive', security: nodeSecurity } },
      async (request, reply) => {
        await recordHeartbeat(context.db, await agentNode(context, request));
        return reply.code(204).send();
      },
    );
  };
}
