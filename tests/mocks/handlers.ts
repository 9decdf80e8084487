import { http, HttpResponse, type JsonBodyType } from 'msw';
import { db } from './db';
import { NOW, SESSION_TOKEN } from './fixtures';

/** Laravel-shaped answers (docs/api-contract.md). */
const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });

const invalid = (errors: Record<string, string[]>) =>
  HttpResponse.json({ message: Object.values(errors)[0]![0], errors }, { status: 422 });

const authorized = (request: Request): boolean => {
  const header = request.headers.get('Authorization') ?? '';
  const token = header.replace(/^Bearer\s+/, '');
  return !!token && db.sessions.has(token);
};

const record = async (request: Request) => {
  let body: unknown = undefined;
  const text = await request.clone().text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  db.requests.push({ method: request.method, url: new URL(request.url), headers: request.headers, body });
  return body as Record<string, any> | undefined;
};

const EMAIL = /^\S+@\S+$/;

const required = (body: Record<string, any> | undefined, fields: string[]) => {
  const errors: Record<string, string[]> = {};
  for (const field of fields) {
    if (!body || body[field] === undefined || body[field] === null || String(body[field]).trim() === '') {
      errors[field] = [`The ${field.replace(/_/g, ' ')} field is required.`];
    }
  }
  return errors;
};

export const handlers = [
  http.get('/api/settings', () =>
    HttpResponse.json({
      appName: 'Testbed Console',
      apiUrl: '',
      sandbox: true,
      cluster: 'sandbox',
      realtime: { key: 'testbed', host: 'localhost', port: 8080, forceTLS: false },
    }),
  ),

  http.post('/login', async ({ request }) => {
    const body = await record(request);
    if (body?.email !== db.user.email || body?.password !== db.password) {
      return invalid({ email: ['These credentials do not match our records.'] });
    }
    db.sessions.add(SESSION_TOKEN);
    return HttpResponse.json({ token: SESSION_TOKEN });
  }),

  http.post('/logout', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    db.sessions.clear();
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/user', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(db.user as unknown as JsonBodyType);
  }),

  http.patch('/user', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const errors = required(body, ['firstname', 'lastname']);
    if (String(body?.lastname ?? '').length > 255) errors.lastname = ['The lastname field must not be greater than 255 characters.'];
    if (Object.keys(errors).length) return invalid(errors);
    db.user = { ...db.user, firstname: body!.firstname, lastname: body!.lastname, name: `${body!.firstname} ${body!.lastname}` };
    return HttpResponse.json(db.user as unknown as JsonBodyType);
  }),

  http.post('/register', async ({ request }) => {
    const body = await record(request);
    const errors = required(body, ['firstname', 'lastname', 'email', 'password']);
    if (body?.email && !EMAIL.test(body.email)) errors.email = ['Invalid email'];
    if (body?.email === db.user.email) errors.email = ['The email has already been taken.'];
    if (body?.password && String(body.password).length < 8) {
      errors.password = ['The password field must be at least 8 characters.'];
    }
    if (body?.password !== body?.password_confirmation) {
      errors.password = [...(errors.password ?? []), 'The password confirmation does not match.'];
    }
    if (Object.keys(errors).length) return invalid(errors);
    return HttpResponse.json(
      { message: 'Registered. Check your mailbox.', user: { id: 2, email: body!.email } },
      { status: 201 },
    );
  }),

  http.post('/email/verification', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(
      { message: 'A new verification link has been sent to your email address.' },
      { status: 202 },
    );
  }),

  http.get('/api/email/verify/:id/:hash', async ({ request, params }) => {
    await record(request);
    const url = new URL(request.url);
    if (params.id !== String(db.user.id) || url.searchParams.get('signature') !== 'good-signature') {
      return HttpResponse.json({ message: 'This verification link is invalid or has expired.' }, { status: 403 });
    }
    db.user = { ...db.user, email_verified_at: NOW };
    return HttpResponse.json({ message: 'Your email address is verified.', verified: true });
  }),

  http.post('/password/link', async ({ request }) => {
    const body = await record(request);
    if (!body?.email || !EMAIL.test(body.email)) return invalid({ email: ['Invalid email'] });
    return HttpResponse.json({
      message: 'If an account exists for this address, we have emailed a password reset link.',
    });
  }),

  http.post('/password/reset/:id/:signature', async ({ request, params }) => {
    const body = await record(request);
    if (params.signature !== 'good-signature') {
      return HttpResponse.json({ message: 'This password reset link is invalid or has expired.' }, { status: 403 });
    }
    const errors = required(body, ['password']);
    if (body?.password && String(body.password).length < 8) {
      errors.password = ['The password field must be at least 8 characters.'];
    }
    if (body?.password !== body?.password_confirmation) {
      errors.password_confirmation = ['The password confirmation does not match.'];
    }
    if (Object.keys(errors).length) return invalid(errors);
    db.password = body!.password;
    db.sessions.clear();
    return HttpResponse.json({ message: 'Your password has been updated.' });
  }),

  http.post('/aup/accept', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    db.user = { ...db.user, aup_accepted_at: NOW };
    return HttpResponse.json(db.user as unknown as JsonBodyType);
  }),

  http.get('/api/tokens', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(db.tokens as unknown as JsonBodyType);
  }),

  http.post('/api/tokens', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const errors = required(body, ['name']);
    if (body?.name && db.tokens.some((token) => token.name === body.name) && body.overwrite !== true) {
      errors.name = ['You already have a token with this name.'];
    }
    if (Object.keys(errors).length) return invalid(errors);
    const id = db.nextTokenId++;
    const accessToken = {
      id,
      name: body!.name as string,
      abilities: ['*'],
      created_at: NOW,
      expires_at: body!.expires_in_days ? '2026-12-22T10:15:00.000Z' : null,
      last_used_at: null,
    };
    db.tokens.push(accessToken);
    return HttpResponse.json(
      { token: { accessToken, plainTextToken: `${id}|plain-secret-${id}` } },
      { status: 201 },
    );
  }),

  http.delete('/api/tokens/:name', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const before = db.tokens.length;
    db.tokens = db.tokens.filter((token) => token.name !== params.name);
    if (db.tokens.length === before) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
    return new HttpResponse(null, { status: 204 });
  }),
];
