import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, MAX_TEXT_LENGTH } from '../http/schemas.js';
import { loadAccess } from './access.js';
import { presentTeams, teamSchema } from './presenter.js';
import { findTeamByIdOrName } from './teams.js';

const tags = ['teams'];
const security = bearerAuth;

/** Teams ("tenants" in the spec's paths). Behind the onboarding gate. */
export function teamRoutes({ db }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tenants',
      { schema: { tags, summary: 'Every team, public part only', security, response: { 200: z.array(teamSchema) } } },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const teams = await db.selectFrom('teams').selectAll().orderBy('name').execute();
        return presentTeams(db, teams, access, { withMembers: false });
      },
    );

    app.get(
      '/api/tenants/:team',
      {
        schema: {
          tags,
          summary: 'A team by id or name; members and admins also get its users',
          security,
          params: z.object({ team: z.string().min(1).max(MAX_TEXT_LENGTH) }),
          response: { 200: teamSchema },
        },
      },
      async (request) => {
        const team = await findTeamByIdOrName(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        return (await presentTeams(db, [team], access, { withMembers: true }))[0];
      },
    );
  };
}
