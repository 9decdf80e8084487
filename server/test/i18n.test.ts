import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage, translateMessage } from '../src/i18n/messages.js';
import { createTestContext, DEFAULT_PASSWORD, linkIn, type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { queueWorkspaceDeletedMails } from '../src/workspaces/deletionNotice.js';
import { createWorld, type World } from './teamFixtures.js';

// French: PATCH /user {locale}, GET /user's locale, mails in the recipient's language
// (the request's at registration), validation messages in the request's language.

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

const FR = { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' };

const frenchUser = async (options: Parameters<TestContext['signedInUser']>[0] = {}): Promise<SignedInUser> => {
  const person = await ctx.signedInUser(options);
  expect((await ctx.inject('PATCH', '/user', { token: person.token, body: { locale: 'fr' } })).statusCode).toBe(200);
  return person;
};

describe('the message catalogue', () => {
  it('reads Accept-Language by preference', () => {
    expect(localeFromAcceptLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(localeFromAcceptLanguage('en-GB,en;q=0.9,fr;q=0.8')).toBe('en');
    expect(localeFromAcceptLanguage('de-DE, fr;q=0.5, en;q=0.4')).toBe('fr');
    expect(localeFromAcceptLanguage('en;q=0.1, fr')).toBe('fr');
    expect(localeFromAcceptLanguage('de, *')).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
  });

  it('translates known messages with their variable parts and field names, and keeps unknown ones', () => {
    expect(translateMessage('The lastname field must not be greater than 255 characters.', 'fr')).toBe(
      'Le champ nom ne doit pas dépasser 255 caractères.',
    );
    expect(translateMessage('The firstname field is required.', 'fr')).toBe('Le champ prénom est obligatoire.');
    expect(translateMessage('The password is too easy to guess. This is a heavily used password. Add more words that are less common.', 'fr')).toBe(
      'Le mot de passe est trop facile à deviner. Ce mot de passe est très utilisé. Ajoutez des mots moins courants.',
    );
    expect(translateMessage('Something nobody wrote down.', 'fr')).toBe('Something nobody wrote down.');
    expect(translateMessage('The email has already been taken.', 'en')).toBe('The email has already been taken.');
  });
});

describe('PATCH /user {locale}', () => {
  it("saves the language, shows it in GET /user's answer, keeps the names", async () => {
    const { token, user } = await ctx.signedInUser({ firstname: 'Marie', lastname: 'Curie' });
    expect((await ctx.inject('GET', '/user', { token })).json().locale).toBeNull();

    const response = await ctx.inject('PATCH', '/user', { token, body: { locale: 'fr' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, firstname: 'Marie', lastname: 'Curie', locale: 'fr' });
    expect((await ctx.inject('GET', '/user', { token })).json().locale).toBe('fr');

    expect((await ctx.inject('PATCH', '/user', { token, body: { locale: 'en' } })).json().locale).toBe('en');
    // With the names, as the profile form sends them.
    const both = await ctx.inject('PATCH', '/user', { token, body: { firstname: 'Maria', lastname: 'Skłodowska', locale: 'fr' } });
    expect(both.json()).toMatchObject({ firstname: 'Maria', lastname: 'Skłodowska', locale: 'fr' });
  });

  it.each([['de'], ['EN'], [''], [null], [1]])('refuses the locale %j with 422', async (locale) => {
    const { token } = await ctx.signedInUser();
    const response = await ctx.inject('PATCH', '/user', { token, body: { locale } });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['locale']);
    expect((await ctx.inject('GET', '/user', { token })).json().locale).toBeNull();
  });

  it('still needs both names when no locale is sent', async () => {
    const { token } = await ctx.signedInUser();
    const response = await ctx.inject('PATCH', '/user', { token, body: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ firstname: ['The firstname field is required.'], lastname: ['The lastname field is required.'] });
  });
});

describe('mails in the recipient’s language', () => {
  it("registration: the verification mail in the request's language (the account has none yet)", async () => {
    const french = uniqueEmail('inscription');
    const response = await ctx.inject('POST', '/register', { body: ctx.registration({ email: french, firstname: 'Émilie' }), headers: FR });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toMatch(/^Merci de votre inscription/);
    expect(response.json().user.locale).toBeNull();
    const mail = await ctx.mailbox.waitFor(french);
    expect(mail.subject).toMatch(/^Vérifiez votre adresse e-mail pour /);
    expect(mail.text).toMatch(/^Bonjour Émilie,/);
    expect(mail.html).toContain('lang="fr"');
    expect(mail.html).toContain('Vérifier mon adresse e-mail');
    expect(linkIn(mail, '/email/verify/').pathname).toMatch(/^\/email\/verify\/\d+\//);

    const english = uniqueEmail('registration');
    expect((await ctx.register({ email: english })).statusCode).toBe(201);
    expect((await ctx.mailbox.waitFor(english)).subject).toMatch(/^Verify your email address for /);
  });

  it("password reset: the user's saved language, whatever the request's", async () => {
    const person = await frenchUser({ firstname: 'Sophie' });
    expect((await ctx.inject('POST', '/password/link', { body: { email: person.user.email } })).statusCode).toBe(200);
    await ctx.idle();
    const link = await ctx.mailbox.waitFor(person.user.email);
    expect(link.subject).toMatch(/^Réinitialisez votre mot de passe /);
    expect(link.text).toContain('Bonjour Sophie,');

    const url = linkIn(link, '/password/reset/');
    const [, , , id, signature] = url.pathname.split('/');
    const reset = await ctx.inject('POST', `/password/reset/${id}/${signature}`, {
      body: { password: `${DEFAULT_PASSWORD} again`, password_confirmation: `${DEFAULT_PASSWORD} again` },
    });
    expect(reset.statusCode).toBe(200);
    const changed = await ctx.mailbox.waitFor(person.user.email);
    expect(changed.subject).toMatch(/^Votre mot de passe .* a été modifié$/);
  });

  it('requests: each decider in their language, the requester in theirs', async () => {
    const admin = await frenchUser({ admin: true, firstname: 'Hélène' });
    const englishAdmin = await ctx.signedInUser({ admin: true });
    const requester = await frenchUser({ firstname: 'Jules' });
    const body = {
      fullname: `Laboratoire ${process.pid}`,
      shortname: unique('labo'),
      affiliation: 'Université',
      country: 'FR',
      url: 'https://labo.example.org',
      joining_reason: 'Recherche',
      joining_category: 'Research',
    };
    const created = await ctx.inject('POST', '/api/requests/teams', { token: requester.token, body });
    expect(created.statusCode).toBe(201);
    const toFrench = await ctx.mailbox.waitFor(admin.user.email);
    expect(toFrench.subject).toBe(`Nouvelle demande : Jules ${requester.user.lastname} demande à créer l’équipe « ${body.fullname} » (${body.shortname})`);
    expect(toFrench.text).toContain('Bonjour Hélène,');
    const toEnglish = await ctx.mailbox.waitFor(englishAdmin.user.email);
    expect(toEnglish.subject).toMatch(/^New request: /);

    const decided = await ctx.inject('PATCH', `/api/requests/${created.json().id}`, { token: englishAdmin.token, body: { action: 'deny' } });
    expect(decided.statusCode).toBe(200);
    const verdict = await ctx.mailbox.waitFor(requester.user.email);
    expect(verdict.subject).toBe(`Votre demande a été refusée : créer l’équipe « ${body.fullname} » (${body.shortname})`);
  });
});

describe('the workspace deletion notice', () => {
  it('goes to each member in their language', async () => {
    const french = await frenchUser({ firstname: 'Louise' });
    const english = await ctx.signedInUser();
    const workspace = { id: 999_001, name: 'vision', label: 'Vision', namespace: 'team-vision', team: { id: 1, name: 'team', fullname: 'Équipe Vision' } };
    await queueWorkspaceDeletedMails(ctx.db, ctx.config, { workspace, memberIds: [french.user.id, english.user.id], deciderName: 'Ada Admin' });
    const rows = await ctx.db
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject', 'text', 'html'])
      .where('recipient', 'in', [french.user.email, english.user.email])
      .execute();
    const to = (email: string) => rows.find((row) => row.recipient === email)!;
    expect(to(french.user.email).subject).toBe('Espace de travail supprimé : Vision (team-vision)');
    expect(to(french.user.email).text).toContain('Bonjour Louise,');
    expect(to(french.user.email).html).toContain('Ouvrir la console');
    expect(to(english.user.email).subject).toBe('Workspace deleted: Vision (team-vision)');
  });
});

describe('validation messages in French', () => {
  it('registration: every field in French with Accept-Language: fr', async () => {
    const response = await ctx.inject('POST', '/register', {
      headers: FR,
      body: { firstname: '', lastname: 'x'.repeat(256), email: 'nope', password: 'short', password_confirmation: 'other' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Le champ prénom est obligatoire.',
      errors: {
        firstname: ['Le champ prénom est obligatoire.'],
        lastname: ['Le champ nom ne doit pas dépasser 255 caractères.'],
        email: ['Adresse e-mail invalide'],
        password: ['Le champ mot de passe doit contenir au moins 8 caractères.', 'La confirmation du mot de passe ne correspond pas.'],
        password_confirmation: ['La confirmation du mot de passe ne correspond pas.'],
      },
    });
  });

  it("registration: a weak password with zxcvbn's advice in French", async () => {
    const response = await ctx.inject('POST', '/register', { headers: FR, body: ctx.registration({ password: 'password', password_confirmation: 'password' }) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.password[0]).toMatch(/^Le mot de passe est trop facile à deviner\. Ce mot de passe est très utilisé\./);
    expect(response.json().errors.password[0]).not.toMatch(/heavily/);
  });

  it('registration: the email taken', async () => {
    const { user } = await ctx.createUser();
    const response = await ctx.inject('POST', '/register', { headers: FR, body: ctx.registration({ email: user.email }) });
    expect(response.json().errors.email).toEqual(['Cette adresse e-mail est déjà utilisée.']);
  });

  it('login, password reset link and reset', async () => {
    const { user } = await ctx.createUser();
    const login = await ctx.inject('POST', '/login', { headers: FR, body: { email: user.email, password: 'wrong password' } });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors.email).toEqual(['Ces identifiants ne correspondent à aucun compte.']);

    const link = await ctx.inject('POST', '/password/link', { headers: FR, body: { email: 'not an email' } });
    expect(link.json().errors.email).toEqual(['Adresse e-mail invalide']);
    const sent = await ctx.inject('POST', '/password/link', { headers: FR, body: { email: uniqueEmail('nobody') } });
    expect(sent.json().message).toBe('Si un compte existe pour cette adresse, nous lui avons envoyé par e-mail un lien de réinitialisation du mot de passe.');

    const reset = await ctx.inject('POST', `/password/reset/${user.id}/nothing`, { headers: FR, body: { password: DEFAULT_PASSWORD, password_confirmation: DEFAULT_PASSWORD } });
    expect(reset.statusCode).toBe(403);
    expect(reset.json().message).toBe('Ce lien de réinitialisation du mot de passe est invalide ou a expiré.');
  });

  it('tokens, the team form and the workspace form', async () => {
    const person = await ctx.signedInUser();
    expect((await ctx.inject('POST', '/api/tokens', { token: person.token, body: { name: 'laptop' } })).statusCode).toBe(201);
    const duplicate = await ctx.inject('POST', '/api/tokens', { token: person.token, headers: FR, body: { name: 'laptop' } });
    expect(duplicate.json().errors.name).toEqual(['Vous avez déjà un jeton d’accès portant ce nom.']);

    const team = await ctx.inject('POST', '/api/requests/teams', {
      token: person.token,
      headers: FR,
      body: { fullname: 'Labo', shortname: 'labo', affiliation: 'U', country: 'FR', url: 'not a url', joining_reason: 'R', joining_category: 'Cooking' },
    });
    expect(team.statusCode).toBe(422);
    expect(team.json().errors).toMatchObject({
      url: ['URL invalide'],
      joining_category: ['La valeur choisie pour le champ catégorie est invalide.'],
    });

    const workspace = await ctx.inject('POST', '/api/requests/workspaces', {
      token: world.people.owner.token,
      headers: FR,
      body: { label: 'Vision', name: 'Not Valid!', team_id: world.team.id },
    });
    expect(workspace.statusCode).toBe(422);
    expect(workspace.json().errors.name).toEqual(['Nom invalide']);
  });

  it("follows the user's saved language when the request names none, and Accept-Language over it", async () => {
    const person = await frenchUser();
    const noHeader = await ctx.inject('PATCH', '/user', { token: person.token, body: { firstname: '', lastname: 'L' } });
    expect(noHeader.json().errors.firstname).toEqual(['Le champ prénom est obligatoire.']);
    const english = await ctx.inject('PATCH', '/user', { token: person.token, headers: { 'accept-language': 'en' }, body: { firstname: '', lastname: 'L' } });
    expect(english.json().errors.firstname).toEqual(['The firstname field is required.']);
    expect((await ctx.inject('GET', '/api/nothing-here', { headers: FR })).json().message).toBe('Introuvable.');
  });
});
