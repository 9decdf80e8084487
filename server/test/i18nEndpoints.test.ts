import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, uniqueEmail } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// French: the server's messages beyond accounts, called as a French console calls them
// (Accept-Language: fr): nodes, invitations, team deletion, admin filters and bulk results,
// token revocation, the HTTP layer, institutional sign-in. i18nCoverage.test.ts checks that every
// message has its French; this checks that the answers carry it.

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

const FR = { 'accept-language': 'fr' };

describe('answers in French beyond accounts', () => {
  it('nodes: the hostname and the claim code', async () => {
    const person = world.people.member;
    const hostname = await ctx.inject('POST', '/api/nodes', { token: person.token, headers: FR, body: { type: 'other', hostname: 'not a host!' } });
    expect(hostname.statusCode).toBe(422);
    const french = 'Le nom d’hôte doit être un nom d’hôte valide : lettres, chiffres et tirets, en parties séparées par des points d’au plus 63 caractères.';
    // Laravel's message: the first field error.
    expect(hostname.json().message).toBe(french);
    expect(hostname.json().errors.hostname).toEqual([french]);
    const code = await ctx.inject('POST', '/api/nodes', { token: person.token, headers: FR, body: { code: 'ZZZZZZ' } });
    expect(code.statusCode).toBe(422);
    expect(code.json().errors.code).toEqual(['Ce code est inconnu ou a expiré.']);
  });

  it('invitations: an existing member, a role above the inviter’s, an unknown role', async () => {
    const path = `/api/tenants/${world.team.id}/invitations`;
    const member = await ctx.inject('POST', path, { token: world.people.owner.token, headers: FR, body: { email: world.people.member.user.email, role: 'member' } });
    expect(member.statusCode).toBe(422);
    expect(member.json().errors.email).toEqual(['Cette personne est déjà membre de cette équipe.']);

    const above = await ctx.inject('POST', path, { token: world.people.manager.token, headers: FR, body: { email: uniqueEmail('new'), role: 'owner' } });
    expect(above.statusCode).toBe(403);
    expect(above.json().message).toBe('Vous ne pouvez pas inviter quelqu’un avec un rôle supérieur au vôtre.');

    const role = await ctx.inject('POST', path, { token: world.people.owner.token, headers: FR, body: { email: uniqueEmail('new'), role: 'boss' } });
    expect(role.statusCode).toBe(422);
    expect(role.json().errors.role).toEqual(['La valeur choisie pour le champ rôle est invalide.']);

    const link = await ctx.inject('GET', '/api/invitations/999999/nothing', { headers: FR });
    expect(link.json().message).toBe('Ce lien d’invitation est invalide.');
  });

  it('a team deletion refused while the team has workspaces', async () => {
    const team = await insertTeam(ctx);
    const workspace = await insertWorkspace(ctx, team);
    const refused = await ctx.inject('DELETE', `/api/admin/teams/${team.id}`, { token: world.people.admin.token, headers: FR });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `L’équipe Team ${team.name} a encore un espace de travail : ${workspace.name}. Supprimez-le d’abord, ou supprimez l’équipe avec ses espaces de travail.`,
    );
  });

  it('a request the console denied itself: its reason in French in every answer carrying it, a decider’s words as written', async () => {
    const team = await insertTeam(ctx);
    const person = await ctx.signedInUser({ firstname: 'Requester', lastname: 'Person' });
    const asked = await ctx.inject('PATCH', '/api/requests/teams', { token: person.token, body: { team_id: team.id, message: 'Let me in' } });
    expect(asked.statusCode, asked.body).toBe(201);
    const deleted = await ctx.inject('DELETE', `/api/admin/teams/${team.id}`, { token: world.people.admin.token });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);

    const id = asked.json().id;
    const find = (items: { id: number; decision_message: string | null }[], wanted = id) => items.find((item) => item.id === wanted);
    // The requester's own requests (GET /user), and the admin's requests page (paginated).
    const user = await ctx.inject('GET', '/user', { token: person.token, headers: FR });
    expect(find(user.json().requests)).toMatchObject({ status: 'Denied', decision_message: 'L’équipe a été supprimée.', message: 'Let me in' });
    const page = await ctx.inject('GET', '/api/requests?page=1&per_page=100&sort=created_at&order=desc', { token: world.people.admin.token, headers: FR });
    expect(find(page.json().data)?.decision_message).toBe('L’équipe a été supprimée.');
    const english = await ctx.inject('GET', '/user', { token: person.token, headers: { 'accept-language': 'en' } });
    expect(find(english.json().requests)?.decision_message).toBe('The team was deleted.');

    // A decider's own words are not the console's: they stay as written.
    const other = await ctx.signedInUser({ firstname: 'Other', lastname: 'Requester' });
    const join = await ctx.inject('PATCH', '/api/requests/teams', { token: other.token, body: { team_id: world.team.id, message: 'Please' } });
    expect(join.statusCode, join.body).toBe(201);
    const decided = await ctx.inject('PATCH', `/api/requests/${join.json().id}`, {
      token: world.people.owner.token,
      headers: FR,
      body: { action: 'deny', message: 'The team was full this term.' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().decision_message).toBe('The team was full this term.');
    const theirs = await ctx.inject('GET', '/user', { token: other.token, headers: FR });
    expect(find(theirs.json().requests, join.json().id)?.decision_message).toBe('The team was full this term.');
  });

  it('admin: list filters, bulk results item by item, token revocation', async () => {
    const admin = world.people.admin;
    const filter = await ctx.inject('GET', '/api/admin/users?filter[verified]=maybe', { token: admin.token, headers: FR });
    expect(filter.statusCode).toBe(422);
    expect(filter.json().errors['filter[verified]']).toEqual(['Le filtre verified doit valoir true ou false.']);

    const bulk = await ctx.inject('POST', '/api/admin/users/bulk', { token: admin.token, headers: FR, body: { ids: [admin.user.id], action: 'disable', dry_run: true } });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().results).toEqual([expect.objectContaining({ id: admin.user.id, status: 'forbidden', message: 'Vous ne pouvez pas désactiver votre propre compte.' })]);

    const neither = await ctx.inject('POST', '/api/admin/users/bulk', { token: admin.token, headers: FR, body: { action: 'disable' } });
    expect(neither.statusCode).toBe(422);
    expect(Object.values(neither.json().errors).flat()).toContain('Donnez soit ids, soit filter.');

    const person = await ctx.signedInUser();
    const revoked = await ctx.inject('DELETE', `/api/admin/users/${person.user.id}/tokens`, { token: admin.token, headers: FR });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().message).toMatch(/^\d+ jetons? d’accès personnels? révoqués?\.$/);
    // The English answer is unchanged for an English console.
    const again = await ctx.inject('DELETE', `/api/admin/users/${person.user.id}/tokens`, { token: admin.token, headers: { 'accept-language': 'en' } });
    expect(again.json().message).toBe('0 personal access tokens revoked.');
  });

  it('the HTTP layer: a body that is not JSON, no session', async () => {
    const notJson = await ctx.inject('POST', '/login', { headers: { ...FR, 'content-type': 'application/json' }, body: '{not json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toBe('Le corps de la requête n’est pas du JSON valide.');
    const unauthenticated = await ctx.inject('GET', '/api/tokens', { headers: FR });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json().message).toBe('Non authentifié.');
  });

  it('institutional sign-in: the redirect names the error by its code (the console words it), the exchange answers in French', async () => {
    const callback = await ctx.inject('GET', '/auth/oidc/callback?state=nothing&code=nothing', { headers: FR });
    expect(callback.statusCode).toBe(302);
    expect(new URL(String(callback.headers.location)).searchParams.get('error')).toBe('expired');
    const exchange = await ctx.inject('POST', '/auth/oidc/exchange', { headers: FR, body: { code: 'x'.repeat(43) } });
    expect(exchange.statusCode).toBe(403);
    expect(exchange.json().message).toBe('Cette connexion n’a pas été commencée dans ce navigateur ou a expiré. Veuillez recommencer.');
  });
});
