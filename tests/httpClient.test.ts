import { http as mswHttp, HttpResponse } from 'msw';
import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createHttpClient, joinFieldErrors, TOKEN_KEY, tokenStore } from '../src/httpClient';
import { server } from './mocks/server';

describe('httpClient', () => {
  it('sends the stored bearer token and asks for JSON', async () => {
    localStorage.setItem(TOKEN_KEY, '5|abc');
    let seen: Headers | undefined;
    server.use(
      mswHttp.get('/api/things', ({ request }) => {
        seen = request.headers;
        return HttpResponse.json([]);
      }),
    );
    await createHttpClient()('/api/things');
    expect(seen?.get('Authorization')).toBe('Bearer 5|abc');
    expect(seen?.get('Accept')).toBe('application/json');
  });

  it('sends no Authorization header without a token, and JSON bodies with a content type', async () => {
    let seen: { headers: Headers; body: unknown } | undefined;
    server.use(
      mswHttp.post('/api/things', async ({ request }) => {
        seen = { headers: request.headers, body: await request.json() };
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
    );
    const answer = await createHttpClient()('/api/things', { method: 'POST', body: { name: 'x' } });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ ok: true });
    expect(seen?.headers.has('Authorization')).toBe(false);
    expect(seen?.headers.get('Content-Type')).toBe('application/json');
    expect(seen?.body).toEqual({ name: 'x' });
  });

  it('prefixes paths with the base URL of the settings', async () => {
    let path = '';
    server.use(
      mswHttp.get('http://api.example.test/prefix/user', ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({});
      }),
    );
    await createHttpClient({ baseUrl: 'http://api.example.test/prefix/' })('/user');
    expect(path).toBe('/prefix/user');
  });

  it('turns a 422 into an HttpError whose errors are joined per field', async () => {
    server.use(
      mswHttp.post('/register', () =>
        HttpResponse.json(
          {
            message: 'The password field must be at least 8 characters.',
            errors: {
              password: ['The password field must be at least 8 characters.', 'The password confirmation does not match.'],
              email: ['The email has already been taken.'],
            },
          },
          { status: 422 },
        ),
      ),
    );
    const failure = await createHttpClient()('/register', { method: 'POST', body: {} }).catch((error) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure.status).toBe(422);
    expect(failure.message).toBe('The password field must be at least 8 characters.');
    expect(failure.body.errors).toEqual({
      password: 'The password field must be at least 8 characters. The password confirmation does not match.',
      email: 'The email has already been taken.',
    });
  });

  it('carries the server message of other errors', async () => {
    server.use(
      mswHttp.post('/email/verification', () =>
        HttpResponse.json({ message: 'Too many attempts. Try again in 1 minute.' }, { status: 429 }),
      ),
    );
    const failure = await createHttpClient()('/email/verification', { method: 'POST' }).catch((error) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure.status).toBe(429);
    expect(failure.message).toBe('Too many attempts. Try again in 1 minute.');
  });

  it('a 401 clears the stored token', async () => {
    tokenStore.set('9|expired');
    server.use(mswHttp.get('/api/tokens', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })));
    await expect(createHttpClient()('/api/tokens')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('a 403 keeps the stored token', async () => {
    tokenStore.set('9|fine');
    server.use(mswHttp.get('/api/tokens', () => HttpResponse.json({ message: 'Forbidden.' }, { status: 403 })));
    await expect(createHttpClient()('/api/tokens')).rejects.toMatchObject({ status: 403, message: 'Forbidden.' });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('9|fine');
  });

  it('sends the token a call names instead of the stored one, or none; their 401 keeps the stored session', async () => {
    tokenStore.set('9|stored');
    const seen: (string | null)[] = [];
    server.use(
      mswHttp.get('/user', ({ request }) => {
        seen.push(request.headers.get('Authorization'));
        return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
      }),
    );
    const http = createHttpClient();
    await expect(http('/user', { token: '3|own' })).rejects.toMatchObject({ status: 401 });
    await expect(http('/user', { token: null })).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual(['Bearer 3|own', null]);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('9|stored');
  });

  it('reports an unreachable server as a network error', async () => {
    server.use(mswHttp.get('/api/tokens', () => HttpResponse.error()));
    await expect(createHttpClient()('/api/tokens')).rejects.toMatchObject({ status: 0, message: 'app.error.network' });
  });

  it('reports an answer whose body is cut short as a network error, and keeps an abort an abort', async () => {
    const failingBody = (error: Error) => async () =>
      new Response(new ReadableStream({ start: (controller) => controller.error(error) }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    const dropped = createHttpClient({ fetch: failingBody(new TypeError('network error')) });
    await expect(dropped('/user')).rejects.toMatchObject({ status: 0, message: 'app.error.network' });
    await expect(dropped('/api/admin/users.csv', { responseType: 'blob' })).rejects.toMatchObject({ status: 0 });
    await expect(dropped('/api/admin/users.csv', { responseType: 'blob', onChunk: () => undefined })).rejects.toMatchObject({ status: 0 });
    const aborted = createHttpClient({ fetch: failingBody(new DOMException('The user aborted a request.', 'AbortError')) });
    await expect(aborted('/user')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('joinFieldErrors accepts strings and ignores non-objects', () => {
    expect(joinFieldErrors({ a: ['x', 'y'], b: 'z' })).toEqual({ a: 'x y', b: 'z' });
    expect(joinFieldErrors(undefined)).toBeUndefined();
    expect(joinFieldErrors(['x'])).toBeUndefined();
  });
});
