import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvResponse, exportNamesFilter, sendCsv } from '../http/csvExport.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { listSchema, paginated } from '../http/pagination.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { Throttle } from '../http/throttle.js';
import { exportAdminNodes } from './export.js';
import { buildNodeSeedImage } from './install/cidataImage.js';
import {
  createNode,
  listNodesFor,
  nodeActivity,
  type NodeServices,
  nodeForUser,
  nodeRateLimits,
  setClusterNodeDisabled,
  withNodeCluster,
} from './nodes.js';
import { type NodeWithOwner, presentAdminNode, presentNode, presentNodeActivity, presentPendingAdminNode, withOwners } from './presenter.js';
import {
  adminNodeDetailSchema,
  adminNodeSchema,
  adminNodesQuery,
  newNodeBody,
  nodeActivitySchema,
  nodeNameParams,
  nodeSchema,
  nodesQuery,
} from './schemas.js';
import { deriveNodeSecret } from './secrets.js';

const tags = ['nodes'];
const security = bearerAuth;
const idParams = z.object({ id: idParam() });
/** The admin list's search and filters without its paging (an export is the whole list), and filter[ids]: only the rows named. */
const adminNodesExportQuery = adminNodesQuery.omit({ page: true, per_page: true }).extend({ 'filter[ids]': exportNamesFilter() });

/** The nodes services of the app's context. */
export const nodeServices = (context: AppContext, logger?: NodeServices['logger']): NodeServices => ({
  db: context.db,
  config: context.config,
  broadcaster: context.broadcaster,
  cluster: context.cluster,
  logger,
});

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
      },
      async (request, reply) => {
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

/** The platform admins' view of every cluster Node (403 for others; behind the onboarding gate first). */
export function adminNodeRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, cluster } = context;

  /** The console nodes (with owners) of these cluster Node names, by name. */
  const consoleNodesNamed = async (names: string[]): Promise<Map<string, NodeWithOwner>> => {
    if (names.length === 0) return new Map();
    const rows = await db.selectFrom('nodes').selectAll().where('name', 'in', names).execute();
    return new Map((await withOwners(db, rows)).map((node) => [node.name!, node]));
  };

  return async (app) => {
    const services = nodeServices(context, app.log);

    const adminNode = async (name: string) => {
      const found = await withNodeCluster(() => cluster.readNode(name));
      if (!found) throw notFound();
      return { found, node: (await consoleNodesNamed([name])).get(name) ?? null };
    };

    /**
     * The admin list: every cluster Node, and the console's nodes not in the cluster yet ('to
     * install', 'installing'), filtered and sorted by name in memory (a testbed has hundreds
     * of nodes, not millions, and the cluster answers them all at once anyway).
     */
    const adminNodesMatching = async (query: z.infer<typeof adminNodesExportQuery>) => {
      const clusterNodes = await withNodeCluster(() => cluster.listNodes());
      const owned = await consoleNodesNamed(clusterNodes.map((node) => node.name));
      const inCluster = new Set(clusterNodes.map((node) => node.name));
      const pending = (await db.selectFrom('nodes').selectAll().where('status', 'in', ['to install', 'installing']).execute()).filter(
        (node) => node.name === null || !inCluster.has(node.name),
      );
      const q = query.q?.toLowerCase();
      const status = query['filter[status]'] === 'disabled' ? '' : query['filter[status]'];
      return [
        ...clusterNodes.map((node) => presentAdminNode(node, owned.get(node.name) ?? null)),
        ...(await withOwners(db, pending)).map(presentPendingAdminNode),
      ]
        .filter((node) => !q || node.name.toLowerCase().includes(q) || (node.hostname?.toLowerCase().includes(q) ?? false))
        .filter((node) => status === undefined || node.status.state === status)
        .filter((node) => query['filter[type]'] === undefined || node.type === query['filter[type]'])
        .filter((node) => query['filter[owner_id]'] === undefined || node.owner?.id === query['filter[owner_id]'])
        .sort((a, b) => a.name.localeCompare(b.name));
    };

    app.get(
      '/api/admin/nodes',
      {
        schema: {
          tags: ['admin'],
          summary: 'Every cluster node with addresses, capacity, system info, status and the owner who contributed it, and the nodes not installed yet',
          security,
          querystring: adminNodesQuery,
          response: { 200: listSchema(adminNodeSchema) },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { query } = request;
        const all = await adminNodesMatching(query);
        if (query.page === undefined) return all;
        return paginated(all.slice((query.page - 1) * query.per_page, query.page * query.per_page), all.length, { page: query.page, perPage: query.per_page });
      },
    );

    app.get(
      '/api/admin/nodes.csv',
      {
        schema: {
          tags: ['admin'],
          summary: 'The nodes of the admin list (same search and filters) as CSV, one line per node',
          security,
          querystring: adminNodesExportQuery,
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        // The list's rows (same q and filter[...], nodes not installed yet included), listed
        // before the answer starts, so that an unreachable cluster is still a 503.
        // filter[ids]: only the rows named (the list's "Export selected"; a row's id is its name).
        const names = request.query['filter[ids]'];
        const nodes = (await adminNodesMatching(request.query)).filter((node) => !names || names.includes(node.name));
        return sendCsv(reply, 'nodes', exportAdminNodes(nodes, async (batch) => batch));
      },
    );

    app.get(
      '/api/admin/nodes/:name',
      {
        schema: {
          tags: ['admin'],
          summary: 'One cluster node, with its conditions and activity',
          security,
          params: nodeNameParams,
          response: { 200: adminNodeDetailSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { found, node } = await adminNode(request.params.name);
        const activity = node ? (await nodeActivity(db, node.id)).map(presentNodeActivity) : [];
        return { ...presentAdminNode(found, node), activity };
      },
    );

    for (const action of ['disable', 'enable'] as const) {
      app.post(
        `/api/admin/nodes/:name/${action}`,
        {
          schema: {
            tags: ['admin'],
            summary: action === 'disable' ? 'Disable a node: cordon it (no new pods) and show it as Disabled' : 'Enable a disabled node again (uncordon)',
            security,
            params: nodeNameParams,
            response: { 200: adminNodeSchema },
          },
          onRequest: requireAdmin,
        },
        async (request) => {
          const { name } = request.params;
          const { cluster: updated } = await setClusterNodeDisabled(services, currentUser(request), name, action === 'disable');
          const node = (await consoleNodesNamed([name])).get(name) ?? null;
          return presentAdminNode(updated, node);
        },
      );
    }
  };
}
