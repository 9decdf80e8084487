import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { schemaFieldErrors, validationError } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { Throttle } from '../http/throttle.js';
import { buildNodeSeedImage } from './install/cidataImage.js';
import { createNode, listNodesFor, nodeActivity, nodeForUser } from './people.js';
import { presentNode, presentNodeActivity, withOwners } from './presenter.js';
import { nodeRateLimits, nodeServices } from './records.js';
import {
  HOSTNAME_TAKEN,
  newNodeBody,
  nodeActivitySchema,
  nodeSchema,
  nodesQuery,
} from './schemas.js';
import { deriveNodeSecret } from './secrets.js';
import { refusedBodyHostnameTaken } from './names.js';
import { nodeTeamBody, setNodeTeam } from './contribution.js';

const tags = ['nodes'];
const security = bearerAuth;
const idParams = z.object({ id: idParam() });

/** GET/POST /api/nodes… (docs/nodes-contract.md): a user's own nodes; platform admins see all. Behind the onboarding gate. */
export function nodeRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, config } = context;
  const limits = nodeRateLimits(config);
  const claimThrottle = limits ? { throttle: new Throttle(db), limit: limits.nodeClaim } : null;

  return async (app) => {
    const services = nodeServices(context, app.log);
    const present = async (nodes: Parameters<typeof withOwners>[1]) => (await withOwners(db, nodes)).map((node) => presentNode(config, node));

    app.get(
      '/api/nodes',
      {
        schema: {
          tags,
          summary: 'Your nodes, newest first (platform admins: ?owner={userId} or ?owner=all)',
          security,
          querystring: nodesQuery,
          response: { 200: z.array(nodeSchema) },
        },
      },
      async (request) => present(await listNodesFor(db, currentUser(request), request.query.owner)),
    );

    app.post(
      '/api/nodes',
      {
        schema: {
          tags,
          summary: 'Add a node to install, or claim a machine by the code it shows',
          security,
          body: newNodeBody,
          response: { 201: nodeSchema },
        },
        // A refused body still has its hostname checked, so the form shows every error at once.
        attachValidation: true,
      },
      async (request, reply) => {
        if (request.validationError) {
          if (!(await refusedBodyHostnameTaken(db, request.body))) throw request.validationError;
          throw validationError({ ...schemaFieldErrors(request.validationError), hostname: [HOSTNAME_TAKEN] });
        }
        const node = await createNode(services, currentUser(request), request.body, claimThrottle);
        const [presented] = await present([node]);
        return reply.code(201).send(presented);
      },
    );

    app.get(
      '/api/nodes/:id',
      { schema: { tags, summary: 'One of your nodes (platform admins: any)', security, params: idParams, response: { 200: nodeSchema } } },
      async (request) => {
        const [presented] = await present([await nodeForUser(db, currentUser(request), request.params.id)]);
        return presented;
      },
    );

    app.patch(
      '/api/nodes/:id',
      {
        schema: {
          tags,
          summary: "Choose the team your node counts for (team_id, one of your teams; null: none): while it is Ready, its capacity times the platform's factors adds to that team's quota",
          security,
          params: idParams,
          body: nodeTeamBody,
          response: { 200: nodeSchema },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const node = await setNodeTeam(db, user, await nodeForUser(db, user, request.params.id), request.body.team_id);
        const [presented] = await present([node]);
        return presented;
      },
    );

    app.get(
      '/api/nodes/:id/activity',
      {
        schema: { tags, summary: "A node's activity, newest first", security, params: idParams, response: { 200: z.array(nodeActivitySchema) } },
      },
      async (request) => {
        const node = await nodeForUser(db, currentUser(request), request.params.id);
        return (await nodeActivity(db, node.id)).map(presentNodeActivity);
      },
    );

    app.get(
      '/api/nodes/:id/image',
      {
        schema: {
          tags,
          summary: "A cloud-init NoCloud seed image (FAT, label CIDATA) that runs the node's install on first boot",
          security,
          params: idParams,
        },
      },
      async (request, reply) => {
        const node = await nodeForUser(db, currentUser(request), request.params.id);
        const secret = deriveNodeSecret(config.appKey, node.secret_salt);
        const image = buildNodeSeedImage({ appUrl: config.appUrl, secret, hostname: node.hostname ?? node.name });
        return reply
          .type('application/octet-stream')
          .header('Content-Disposition', `attachment; filename="testbed-node-${node.id}-cidata.img"`)
          .header('Cache-Control', 'no-store')
          .send(image);
      },
    );
  };
}
