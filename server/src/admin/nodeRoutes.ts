import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvResponse, exportNamesFilter, sendCsv } from '../http/csvExport.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { listSchema, paginated } from '../http/pagination.js';
import { bearerAuth } from '../http/schemas.js';
import { exportAdminNodes } from '../nodes/export.js';
import { nodeActivity, setClusterNodeDisabled } from '../nodes/people.js';
import { type NodeWithOwner, presentAdminNode, presentNodeActivity, presentPendingAdminNode, withOwners } from '../nodes/presenter.js';
import { nodeServices, withNodeCluster } from '../nodes/records.js';
import {
  adminNodeDetailSchema,
  adminNodeSchema,
  adminNodesQuery,
  nodeNameParams,
} from '../nodes/schemas.js';

// The platform admins' view of every cluster Node, beside the other /api/admin routes; people's
// own nodes are nodes/routes.ts.

const security = bearerAuth;
/** The admin list's search and filters without its paging (an export is the whole list), and filter[ids]: only the rows named. */
const adminNodesExportQuery = adminNodesQuery.omit({ page: true, per_page: true }).extend({ 'filter[ids]': exportNamesFilter() });

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
