import { http, HttpResponse, type JsonBodyType } from 'msw';
import { db, policyDb } from './db';
import { NOW, SESSION_TOKEN } from './fixtures';
import { authorized, record } from './http';

/** Laravel-shaped answers (docs/api-contract.md). */
const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });

const invalid = (errors: Record<string, string[]>) =>
  HttpResponse.json({ message: Object.values(errors)[0]![0], errors }, { status: 422 });

export const KUBECONFIG_EXPIRES_AT = '2026-11-23T18:45:00.000Z';

export const kubeconfigYaml = (namespace: string) => `apiVersion: v1
kind: Config
clusters:
- name: testbed
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: LS0tLS1CRUdJTg==
users:
- name: ${namespace}
  user:
    token: mock-token
contexts:
- name: ${namespace}
  context:
    cluster: testbed
    namespace: ${namespace}
    user: ${namespace}
current-context: ${namespace}
`;

const clusterDown = () => {
  if (db.cluster === 'down') {
    return HttpResponse.json({ message: 'The cluster cannot be reached right now. Try again in a minute.' }, { status: 503 });
  }
  if (db.cluster === 'none') return HttpResponse.json({ message: 'No cluster is connected to this console.' }, { status: 503 });
  return null;
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

const notFound = () => HttpResponse.json({ message: 'Not found.' }, { status: 404 });
const json = (value: unknown, status = 200) => HttpResponse.json(value as JsonBodyType, { status });

/** Laravel paginator of `rows` for `?page`, or the plain array without it. */
const listAnswer = (url: URL, rows: Record<string, any>[]) => {
  const page = url.searchParams.get('page');
  if (!page) return json(rows);
  const perPage = Number(url.searchParams.get('per_page') ?? 25);
  const current = Number(page);
  return json({
    data: rows.slice((current - 1) * perPage, current * perPage),
    meta: { current_page: current, per_page: perPage, total: rows.length, last_page: Math.max(1, Math.ceil(rows.length / perPage)) },
  });
};

/** A request as the API presents it, for the current user. */
export const newRequest = (type: string, status: string, object: Record<string, any>, extra: Record<string, any> = {}) => ({
  id: db.nextRequestId++,
  type,
  status,
  message: null,
  data: {},
  user: { id: db.user.id, firstname: db.user.firstname, lastname: db.user.lastname, name: db.user.name },
  object,
  team: null,
  decided_by: null,
  decided_at: null,
  decision_message: null,
  created_at: NOW,
  updated_at: NOW,
  can_decide: false,
  ...extra,
});

const findTeam = (idOrName: string) => db.teams.find((team) => String(team.id) === idOrName || team.name === idOrName);

export const handlers = [
  http.get('/api/settings', () =>
    HttpResponse.json({
      appName: 'Testbed Console',
      apiUrl: '',
      sandbox: true,
      cluster: 'sandbox',
      realtime: { key: 'testbed', host: 'localhost', port: 8080, forceTLS: false },
      nodeInstall: { scriptUrl: 'http://localhost:8000/agent/install', imageUrl: 'http://localhost:8000/agent/image' },
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
    // The names (profile form), the language (locale), or both.
    const namesSent = body?.firstname !== undefined || body?.lastname !== undefined || body?.locale === undefined;
    const errors = namesSent ? required(body, ['firstname', 'lastname']) : {};
    if (String(body?.lastname ?? '').length > 255) errors.lastname = ['The lastname field must not be greater than 255 characters.'];
    if (body?.locale !== undefined && body.locale !== 'en' && body.locale !== 'fr') errors.locale = ['The selected locale is invalid.'];
    if (Object.keys(errors).length) return invalid(errors);
    if (namesSent) db.user = { ...db.user, firstname: body!.firstname, lastname: body!.lastname, name: `${body!.firstname} ${body!.lastname}` };
    if (body?.locale !== undefined) db.user = { ...db.user, locale: body.locale };
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
      // As the server answers (docs/api-contract.md, POST /register): under password (Laravel's
      // place) and password_confirmation.
      errors.password = [...(errors.password ?? []), 'The password confirmation does not match.'];
      errors.password_confirmation = ['The password confirmation does not match.'];
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
    db.tokens = [];
    return HttpResponse.json({
      message: 'Your password has been updated. Every session and personal access token of the account has been revoked.',
    });
  }),

  http.post('/aup/accept', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    db.user = { ...db.user, aup_accepted_at: NOW, aup_version_id: policyDb.inForce.id, aup_required: false, aup_renewal: null };
    return HttpResponse.json(db.user as unknown as JsonBodyType);
  }),

  http.get('/api/policy', async ({ request }) => {
    await record(request);
    return HttpResponse.json(policyDb.inForce as unknown as JsonBodyType);
  }),

  http.get('/api/admin/policy', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return HttpResponse.json(policyDb.versions as unknown as JsonBodyType);
  }),

  http.post('/api/admin/policy', async ({ request }) => {
    const body = (await record(request)) as { text: { en: string; fr: string }; summary: string };
    if (!authorized(request)) return unauthenticated();
    const version = { id: policyDb.versions.length + 1, summary: body.summary, text: body.text, published_at: NOW, published_by: { id: db.user.id, name: 'Ada Admin', email: db.user.email } };
    policyDb.versions = [version, ...policyDb.versions];
    policyDb.inForce = { version: String(version.id), id: version.id, summary: version.summary, published_at: NOW, text: version.text, validity_days: 365 };
    return HttpResponse.json(version as unknown as JsonBodyType, { status: 201 });
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

  http.get('/api/requests', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const url = new URL(request.url);
    const status = url.searchParams.get('status');
    return listAnswer(url, db.toDecide.filter((item) => !status || item.status === status));
  }),

  http.patch('/api/requests/teams', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const team = db.teams.find((item) => item.id === body?.team_id);
    if (!team) return invalid({ team_id: ['The selected team id is invalid.'] });
    if (team.member) return invalid({ team_id: ['You are already a member of this team.'] });
    const created = newRequest('JoinTeam', 'Pending', { id: team.id, name: team.name, fullname: team.fullname, shortname: team.shortname }, { message: body?.message ?? null });
    db.user = { ...db.user, requests: [created as any, ...(db.user.requests ?? [])] };
    return json(created, 201);
  }),

  http.post('/api/requests/teams', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const errors = required(body, ['fullname', 'shortname', 'affiliation', 'country', 'url', 'joining_reason', 'joining_category']);
    if (body?.url && !/^https?:\/\//.test(body.url)) errors.url = ['Invalid URL'];
    if (Object.keys(errors).length) return invalid(errors);
    const name = String(body!.shortname).toLowerCase().replace(/\s+/g, '').replace(/\W/g, '');
    if (db.teams.some((team) => team.name === name)) return invalid({ shortname: ['A team with this short name already exists.'] });
    const created = newRequest('CreateTeam', 'Pending', { name, fullname: body!.fullname, shortname: body!.shortname });
    db.user = { ...db.user, requests: [created as any, ...(db.user.requests ?? [])] };
    return json(created, 201);
  }),

  http.post('/api/requests/workspaces', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const errors = required(body, ['label', 'name', 'team_id']);
    if (body?.name && !/^[a-z0-9][a-z0-9-]*[a-z0-9]$/.test(body.name)) errors.name = ['Invalid name'];
    if (Object.keys(errors).length) return invalid(errors);
    const team = db.teams.find((item) => item.id === body!.team_id);
    if (!team?.member) return json({ message: 'You are not a member of this team.' }, 403);
    if ((team.workspaces ?? []).some((workspace: any) => workspace.name === body!.name)) {
      return invalid({ name: ['A workspace with this name already exists in this team.'] });
    }
    const manager = team.role === 'owner' || team.role === 'manager';
    return json(newRequest('CreateWorkspace', manager ? 'Approved' : 'Pending', { name: body!.name, label: body!.label }), 201);
  }),

  http.patch('/api/requests/workspaces/', async ({ request }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const workspace = db.workspaces.find((item) => item.name === body?.name && item.team?.id === body?.team_id);
    if (!workspace) return invalid({ name: ['The selected workspace is invalid.'] });
    if (workspace.member) return invalid({ name: ['You are already a member of this workspace.'] });
    const created = newRequest('JoinWorkspace', 'Pending', { id: workspace.id, name: workspace.name, label: workspace.label });
    workspace.requests = [...(workspace.requests ?? []), { id: created.id, user_id: db.user.id, type: 'JoinWorkspace', status: 'Pending', created_at: NOW }];
    return json(created, 201);
  }),

  http.patch('/api/requests/:id', async ({ request, params }) => {
    const body = await record(request);
    if (!authorized(request)) return unauthenticated();
    const found = db.toDecide.find((item) => String(item.id) === params.id);
    if (!found) return notFound();
    if (body?.action !== 'approve' && body?.action !== 'deny') return invalid({ action: ['The selected action is invalid.'] });
    if (found.status !== 'Pending') return json({ message: 'This request has already been decided.' }, 409);
    found.status = body.action === 'approve' ? 'Approved' : 'Denied';
    found.decision_message = body.message ?? null;
    return json(found);
  }),

  http.get('/api/tenants', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const teams = db.teams.map(({ users: _users, ...team }) => team);
    // As the server: with q, the first `limit` (20) teams whose names match it.
    const q = new URL(request.url).searchParams.get('q')?.toLowerCase();
    if (!q) return json(teams);
    const limit = Number(new URL(request.url).searchParams.get('limit') ?? 20);
    return json(teams.filter((team) => [team.name, team.fullname, team.shortname].some((name) => String(name ?? '').toLowerCase().includes(q))).slice(0, limit));
  }),

  http.get('/api/tenants/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const team = findTeam(String(params.id));
    return team ? json(team) : notFound();
  }),

  http.get('/api/subnamespaces/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const workspace = db.workspaces.find((item) => String(item.id) === params.id);
    return workspace ? json(workspace) : notFound();
  }),

  http.delete('/api/subnamespaces/:id/users/:userId', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const workspace = db.workspaces.find((item) => String(item.id) === params.id);
    if (!workspace) return notFound();
    const self = String(db.user.id) === params.userId;
    if (!self && !workspace.can_manage) {
      return json({ message: "Only the workspace's managers and its team's managers can remove members." }, 403);
    }
    const users: { id: number }[] = workspace.users ?? [];
    if (!users.some((user) => String(user.id) === params.userId)) {
      return json({ message: 'This person is not a member of this workspace.' }, 404);
    }
    workspace.users = users.filter((user) => String(user.id) !== params.userId);
    return new HttpResponse(null, { status: 204 });
  }),

  // Cluster (docs/api-contract.md "Cluster"): members of the workspace and platform admins.
  http.post('/api/subnamespaces/:id/kubeconfig', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const workspace = db.workspaces.find((item) => String(item.id) === params.id);
    if (!workspace) return notFound();
    if (!workspace.member && !db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    const down = clusterDown();
    if (down) return down;
    if (workspace.provisioned === false) {
      return json({ message: 'This workspace is still being set up in the cluster. Try again in a minute.' }, 409);
    }
    return json(
      {
        kubeconfig: kubeconfigYaml(workspace.namespace),
        namespace: workspace.namespace,
        expires_at: KUBECONFIG_EXPIRES_AT,
        filename: `${workspace.namespace}.kubeconfig`,
      },
      201,
    );
  }),

  http.get('/api/pods', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const namespace = new URL(request.url).searchParams.get('namespace');
    if (!namespace) return invalid({ namespace: ['The namespace field is required.'] });
    const workspace = db.workspaces.find((item) => item.namespace === namespace);
    if (!workspace) return notFound();
    if (!workspace.member && !db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    const down = clusterDown();
    if (down) return down;
    return json(db.pods[namespace] ?? []);
  }),

  // The admin lists' CSV exports (before /api/admin/:list, which would take 'users.csv' as a list).
  http.get(/\/api\/admin\/[a-z]+\.csv$/, async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    const list = /([a-z]+)\.csv$/.exec(new URL(request.url).pathname)![1]!;
    const rows = db.admin[list] ?? [];
    return new HttpResponse(['id', ...rows.map((row) => String(row.id ?? row.name))].join('\r\n') + '\r\n', {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${list}-2026-11-22.csv"` },
    });
  }),

  http.get('/api/admin/:list', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    const rows = db.admin[String(params.list)];
    return rows ? listAnswer(new URL(request.url), rows) : notFound();
  }),
];
