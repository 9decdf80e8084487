import { http, HttpResponse } from 'msw';
import { db } from './db';
import { NOW, SESSION_TOKEN } from './fixtures';
import { authorized, record } from './http';

// Invitations, the invitation link, linked identities and the OpenID code exchange,
// as docs/api-contract.md ("Invitations", "Institutional sign-in") describes them. Empty by
// default (the team and profile pages ask for them); tests arrange `invitationDb`.

export interface MockInvitation {
  id: number;
  team_id: number;
  email: string;
  role: string;
  workspaces: { id: number; name: string; label: string }[];
  status: 'pending';
  expired: boolean;
  invited_by: { id: number; name: string } | null;
  inviter_can_grant: boolean;
  expires_at: string;
  sent_at: string;
  created_at: string;
}

export interface InvitationDb {
  invitations: MockInvitation[];
  nextId: number;
  /** The mailed links: `${id}/${token}` → the invitation preview, or the 403 message. */
  links: Map<string, { preview: Record<string, any> } | { refused: string }>;
  identities: Record<string, any>[];
  adminIdentities: Map<number, Record<string, any>[]>;
  /** One-time codes of POST /auth/oidc/exchange. */
  codes: Set<string>;
}

export const invitationDb: InvitationDb = {} as InvitationDb;

export const resetInvitationDb = () => {
  invitationDb.invitations = [];
  invitationDb.nextId = 40;
  invitationDb.links = new Map();
  invitationDb.identities = [];
  invitationDb.adminIdentities = new Map();
  invitationDb.codes = new Set();
};
resetInvitationDb();

export const makeInvitation = (overrides: Partial<MockInvitation> = {}): MockInvitation => ({
  id: 41,
  team_id: 3,
  email: 'colleague@uni.example',
  role: 'member',
  workspaces: [],
  status: 'pending',
  expired: false,
  invited_by: { id: 1, name: 'Ada Lovelace' },
  inviter_can_grant: true,
  expires_at: '2026-11-29T10:15:00.000Z',
  sent_at: NOW,
  created_at: NOW,
  ...overrides,
});

const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });

export const invitationHandlers = [
  http.get('/api/tenants/:team/invitations', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(invitationDb.invitations.filter((invitation) => invitation.team_id === Number(params.team)));
  }),

  http.post('/api/tenants/:team/invitations', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    if (!/^\S+@\S+$/.test(String(body.email ?? ''))) return HttpResponse.json({ message: 'Invalid email', errors: { email: ['Invalid email'] } }, { status: 422 });
    if (body.email === 'member@uni.example') {
      const message = 'This person is already a member of this team.';
      return HttpResponse.json({ message, errors: { email: [message] } }, { status: 422 });
    }
    if (body.role === 'owner' && db.user.teams?.find((team) => team.id === Number(params.team))?.role !== 'owner') {
      return HttpResponse.json({ message: 'You cannot invite someone with a role above your own.' }, { status: 403 });
    }
    const invitation = makeInvitation({ id: invitationDb.nextId++, team_id: Number(params.team), email: body.email, role: body.role });
    invitationDb.invitations.unshift(invitation);
    return HttpResponse.json(invitation, { status: 201 });
  }),

  http.post('/api/tenants/:team/invitations/:id/resend', async ({ request, params }) => {
    await record(request);
    const invitation = invitationDb.invitations.find((entry) => entry.id === Number(params.id));
    if (!invitation) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
    invitation.expired = false;
    // The resender becomes its inviter.
    invitation.inviter_can_grant = true;
    return HttpResponse.json(invitation);
  }),

  http.delete('/api/tenants/:team/invitations/:id', async ({ request, params }) => {
    await record(request);
    invitationDb.invitations = invitationDb.invitations.filter((entry) => entry.id !== Number(params.id));
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/api/invitations/:id/:token', async ({ request, params }) => {
    await record(request);
    const link = invitationDb.links.get(`${params.id}/${params.token}`);
    if (!link) return HttpResponse.json({ message: 'This invitation link is invalid.' }, { status: 403 });
    if ('refused' in link) return HttpResponse.json({ message: link.refused }, { status: 403 });
    return HttpResponse.json(link.preview);
  }),

  http.post('/api/invitations/:id/:token/accept', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const link = invitationDb.links.get(`${params.id}/${params.token}`);
    if (!link || 'refused' in link) return HttpResponse.json({ message: 'This invitation has already been used.' }, { status: 403 });
    const { preview } = link;
    if (preview.email !== db.user.email) {
      return HttpResponse.json({ message: `This invitation was sent to ${preview.email}, but you are signed in as ${db.user.email}.` }, { status: 403 });
    }
    invitationDb.links.set(`${params.id}/${params.token}`, { refused: 'This invitation has already been used.' });
    return HttpResponse.json({ message: `You joined ${preview.team.fullname}.`, team: preview.team, role: preview.role, workspaces: preview.workspaces });
  }),

  http.get('/api/identities', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(invitationDb.identities);
  }),

  http.post('/api/identities', async ({ request }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    if (body.password !== db.password) {
      return HttpResponse.json({ message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } }, { status: 422 });
    }
    return HttpResponse.json({ url: `https://idp.example/auth?client_id=console&provider=${body.provider}` });
  }),

  http.delete('/api/identities/:id', async ({ request, params }) => {
    await record(request);
    invitationDb.identities = invitationDb.identities.filter((identity) => identity.id !== Number(params.id));
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/api/admin/users/:id/identities', async ({ request, params }) => {
    await record(request);
    return HttpResponse.json(invitationDb.adminIdentities.get(Number(params.id)) ?? []);
  }),

  http.post('/auth/oidc/exchange', async ({ request }) => {
    const body = (await record(request)) ?? {};
    if (!invitationDb.codes.delete(String(body.code))) {
      return HttpResponse.json({ message: 'This sign-in code is invalid or has expired. Please sign in again.' }, { status: 403 });
    }
    db.sessions.add(SESSION_TOKEN);
    return HttpResponse.json({ token: SESSION_TOKEN });
  }),
];
