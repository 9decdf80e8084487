import { http, HttpResponse, type JsonBodyType } from 'msw';
import { db } from './db';
import { newRequest } from './handlers';
import { authorized, record } from './http';

// Ends of workspaces, teams and memberships (docs/lifecycle.md, docs/api-contract.md): renewal
// requests, a membership's end date, and invitations to many addresses at once. Registered by
// the tests that need them (`server.use(...lifecycleHandlers)`), before the generic handlers.

export const DUPLICATE_PENDING = 'A request for this is already pending.';

export const lifecycleDb: {
  /** Renewals already pending ('workspace:7', 'team:3'): a new one is the server's 409. */
  pending: Set<string>;
  /** The renewal is approved at once (a team manager asking within the default lifetime). */
  approveAtOnce: boolean;
  /** Addresses of the team's members and of pending invitations, for the many-address answer. */
  members: Set<string>;
  invited: Set<string>;
  /** Invitations the budget still allows in the many-address call. */
  budgetLeft: number;
} = { pending: new Set(), approveAtOnce: false, members: new Set(), invited: new Set(), budgetLeft: 1000 };

export const resetLifecycleDb = () => {
  lifecycleDb.pending = new Set();
  lifecycleDb.approveAtOnce = false;
  lifecycleDb.members = new Set();
  lifecycleDb.invited = new Set();
  lifecycleDb.budgetLeft = 1000;
};

const json = (value: unknown, status = 200) => HttpResponse.json(value as JsonBodyType, { status });
const invalid = (errors: Record<string, string[]>) => json({ message: Object.values(errors)[0]![0], errors }, 422);
const unauthenticated = () => json({ message: 'Unauthenticated.' }, 401);

function renewal(kind: 'workspace' | 'team', id: string, body: Record<string, any> | undefined) {
  const errors: Record<string, string[]> = {};
  if (kind === 'workspace' && (!Number.isInteger(body?.days) || body!.days < 1 || body!.days > 3650)) errors.days = ['The days field must be between 1 and 3650.'];
  if (!String(body?.reason ?? '').trim()) errors.reason = ['The reason field is required.'];
  if (Object.keys(errors).length) return invalid(errors);
  const key = `${kind}:${id}`;
  if (lifecycleDb.pending.has(key)) return json({ message: DUPLICATE_PENDING }, 409);
  const approved = lifecycleDb.approveAtOnce;
  if (!approved) lifecycleDb.pending.add(key);
  const object =
    kind === 'workspace'
      ? (({ id: workspaceId, name, label }) => ({ id: workspaceId, name, label }))(db.workspaces.find((item) => String(item.id) === id) ?? { id: Number(id), name: '', label: '' })
      : (({ id: teamId, name, fullname, shortname }) => ({ id: teamId, name, fullname, shortname }))(db.teams.find((item) => String(item.id) === id) ?? { id: Number(id), name: '', fullname: '', shortname: '' });
  const created = newRequest(kind === 'workspace' ? 'RenewWorkspace' : 'RenewTeam', approved ? 'Approved' : 'Pending', object, {
    message: body!.reason,
    data: kind === 'workspace' ? { days: body!.days, expires_at: null } : { expires_at: null },
  });
  db.user = { ...db.user, requests: [created as any, ...(db.user.requests ?? [])] };
  return json(created, 201);
}

export const lifecycleHandlers = [
  http.post('/api/requests/workspaces/:id/renewal', async ({ request, params }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    return renewal('workspace', String(params.id), body);
  }),

  http.post('/api/requests/teams/:id/renewal', async ({ request, params }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    return renewal('team', String(params.id), body);
  }),

  http.patch('/api/tenants/:id/users/:userId', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    const team = db.teams.find((item) => String(item.id) === params.id);
    const target = team?.users?.find((user: { id: number }) => String(user.id) === params.userId);
    if (!team || !target) return json({ message: 'Not found.' }, 404);
    if (body.expires_at !== null && Date.parse(body.expires_at) <= Date.now()) return invalid({ expires_at: ['The end date must be in the future.'] });
    target.pivot = { ...target.pivot, expires_at: body.expires_at };
    return json({ id: target.id, team_id: team.id, role: target.pivot.role, previous: target.pivot.role, expires_at: body.expires_at });
  }),

  // Many addresses; one address goes on to the invitation handlers.
  http.post('/api/tenants/:team/invitations', async ({ request }) => {
    const peek = (await request.clone().json().catch(() => null)) as Record<string, any> | null;
    if (!Array.isArray(peek?.emails)) return undefined;
    const body = (await record(request))!;
    if (!authorized(request)) return unauthenticated();
    if (body.emails.length > 200) return invalid({ emails: ['The emails field must not have more than 200 items.'] });
    const results = (body.emails as string[]).map((sent) => {
      const email = sent.trim().toLowerCase();
      if (!/^\S+@\S+$/.test(email)) return { email: sent.trim(), status: 'invalid', message: 'Invalid email', invitation: null };
      if (lifecycleDb.members.has(email)) return { email, status: 'already_member', message: 'This person is already a member of this team.', invitation: null };
      if (lifecycleDb.invited.has(email)) return { email, status: 'already_invited', message: 'An invitation to this address is already pending: resend it instead.', invitation: null };
      if (lifecycleDb.budgetLeft <= 0) {
        return { email, status: 'limited', message: 'You may send 20 invitations per 1 h, whatever the team, and have reached that limit. Try again in 30 minutes.', invitation: null };
      }
      lifecycleDb.budgetLeft -= 1;
      return { email, status: 'created', message: null, invitation: { id: 900, email } };
    });
    const count = (status: string) => results.filter((result) => result.status === status).length;
    return json({
      results,
      totals: {
        requested: results.length,
        created: count('created'),
        already_member: count('already_member'),
        already_invited: count('already_invited'),
        invalid: count('invalid'),
        limited: count('limited'),
      },
      retry_after: count('limited') > 0 ? 1800 : null,
    });
  }),
];
