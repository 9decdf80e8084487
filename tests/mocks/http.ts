import { db } from './db';

// What every msw handler does first: record the request (tests assert on db.requests) and
// check the bearer token against the mock's sessions.

/** The request carries a bearer token of a signed-in session. */
export const authorized = (request: Request): boolean => {
  const header = request.headers.get('Authorization') ?? '';
  const token = header.replace(/^Bearer\s+/, '');
  return !!token && db.sessions.has(token);
};

export const record = async (request: Request) => {
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

/** Expiry of the mock kubeconfigs. */
