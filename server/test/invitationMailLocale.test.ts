import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, uniqueEmail } from './helpers.js';
import { createWorld, type World } from './teamFixtures.js';

// French: the invitation mail in the invitee's language: the one the inviter chose
// (`locale` in the body), else the invited account's saved one, else the inviter's request
// language (the console sends its own), else English. Real SMTP.

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

async function invite(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await ctx.inject('POST', `/api/tenants/${world.team.id}/invitations`, { token: world.people.owner.token, headers, body: { role: 'member', ...body } });
  return response;
}

async function mailTo(email: string, subject: RegExp) {
  await ctx.idle();
  return ctx.mailbox.waitFor(email, { subject });
}

describe('the invitation mail’s language', () => {
  it('French when the inviter chooses it, with the role in French', async () => {
    const email = uniqueEmail('fr');
    const response = await invite({ email, role: 'manager', locale: 'fr' }, { 'accept-language': 'en' });
    expect(response.statusCode).toBe(201);
    const mail = await mailTo(email, /vous invite/);
    expect(mail.text).toContain('Olivia Owner vous invite à rejoindre l’équipe');
    expect(mail.text).toContain('en tant que gestionnaire.');
    expect(mail.text).toContain('reste valable 7 jours');
    expect(mail.html).toContain('Accepter l’invitation');
    expect(mail.html).toContain('lang="fr"');
  });

  it("the invited account's saved language over the inviter's", async () => {
    const person = await ctx.signedInUser();
    expect((await ctx.inject('PATCH', '/user', { token: person.token, body: { locale: 'fr' } })).statusCode).toBe(200);
    expect((await invite({ email: person.user.email }, { 'accept-language': 'en' })).statusCode).toBe(201);
    const mail = await mailTo(person.user.email, /vous invite/);
    expect(mail.text).toContain('en tant que membre.');
  });

  it("the inviter's request language when nothing else says, English by default, and resend follows the rule", async () => {
    const french = uniqueEmail('acceptfr');
    expect((await invite({ email: french }, { 'accept-language': 'fr-FR,fr;q=0.9' })).statusCode).toBe(201);
    expect((await mailTo(french, /vous invite/)).text).toContain('Bonjour,');

    const english = uniqueEmail('en');
    const created = await invite({ email: english });
    expect(created.statusCode).toBe(201);
    const mail = await mailTo(english, /invites you/);
    expect(mail.text).toContain('Olivia Owner invites you to join the team');
    expect(mail.text).toContain('as member.');

    const resent = await ctx.inject('POST', `/api/tenants/${world.team.id}/invitations/${created.json().id}/resend`, {
      token: world.people.owner.token,
      headers: { 'accept-language': 'fr' },
    });
    expect(resent.statusCode).toBe(200);
    await ctx.idle();
    const again = await ctx.mailbox.waitFor(english, { subject: /vous invite/ });
    expect(again.text).toContain('Olivia Owner vous invite');
  });

  it('refuses an unknown language with 422 on locale', async () => {
    const response = await invite({ email: uniqueEmail('de'), locale: 'de' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.locale).toEqual(['The selected locale is invalid.']);
    const french = await invite({ email: uniqueEmail('de'), locale: 'de' }, { 'accept-language': 'fr' });
    expect(french.json().errors.locale).toEqual(['La valeur choisie pour le champ langue est invalide.']);
  });
});
