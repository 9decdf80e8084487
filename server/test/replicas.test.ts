import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { Kysely } from 'kysely';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/users/passwords.js';
import { createDatabase, timestamp } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';
import { eventually, freePort, type Mailbox, pause, startMailbox } from './helpers.js';
import {
  buildServerCopy,
  type PostgresCluster,
  postgresBinaries,
  type Spawned,
  spawnLogged,
  startPostgresCluster,
  waitForOutput,
  waitUntilAnswering,
} from './processes.js';

// Replicas (docs/deploy.md): N replicas on one PostgreSQL behave as one. Three compiled server processes
// (node build/…/main.js, as the image runs it) share a PostgreSQL cluster of this test's own
// (so that it can restart it), one standalone sandbox cluster (npm run sandbox, with its audit
// log of every API request), one APP_KEY and one SMTP catcher; each has its own ports and
// storage. What is proved, in order:
//   a. realtime events caused on A and on C reach a pusher-js client on B exactly once;
//   c. login failures are throttled across replicas;
//   b. one leader; SIGKILLed, another leads within 10 s, resyncs without writing, and an
//      approval made afterwards reaches the cluster;
//   d. a PostgreSQL restart leaves every replica up, answering 503 (never 500) meanwhile and
//      ready within 10 s after, with one leader and the realtime bus working again;
//   -  across the whole run each object was created in the cluster once, and nothing else written;
//   e. SIGTERM ends each replica with 0.
// More behaviours across replicas (the mail outbox: a mail queued by a killed replica is sent
// by another) go in describe blocks of their own between "the cluster across the whole run"
// and "shutdown", using `world` and the helpers: replica(name), living(), startReplica(name,
// ports) to bring a killed one back, theLeader(), logIn(), api(), listenOn(), world.mailbox
// (every replica's MAIL_URL), world.db, world.people, world.teamId.
// Killing: replica(name).process.child.kill('SIGKILL'), then await replica(name).process.exited.
//
// Runs when PostgreSQL is available to the test run (a postgres DATABASE_URL or
// TEST_POSTGRES_URL, as replicaParts.test.ts: so in both passes of npm test under CI), and
// needs the PostgreSQL server binaries (initdb, pg_ctl) to start its own cluster.

const postgresConfigured = [process.env.DATABASE_URL, process.env.TEST_POSTGRES_URL].some((url) => /^postgres(ql)?:\/\//.test(url ?? ''));
const pgBin = postgresBinaries();
if (process.env.CI && !postgresConfigured) throw new Error('replicas.test.ts needs PostgreSQL in CI: set TEST_POSTGRES_URL');
if (process.env.CI && !pgBin) throw new Error('replicas.test.ts needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin) in CI');
const enabled = postgresConfigured && pgBin !== null;
if (!enabled) {
  console.warn(
    `\n*** SKIPPING the multi-replica test: ${postgresConfigured ? 'no PostgreSQL server binaries (/usr/lib/postgresql/*/bin)' : 'no DATABASE_URL or TEST_POSTGRES_URL for PostgreSQL'} ***\n`,
  );
}

const PASSWORD = 'correct horse battery staple';
const APP_KEY = `replicas-test-key-${Date.now()}`;
const REALTIME_KEY = 'testbed';
const NAMES = ['A', 'B', 'C'] as const;

interface Replica {
  name: string;
  port: number;
  realtimePort: number;
  url: string;
  storage: string;
  process: Spawned;
}

interface Person {
  id: number;
  email: string;
}

type AuditEntry = { verb: string; path: string; user: string };
const READS = new Set(['get', 'list', 'watch']);

/** Everything the describe blocks share (and a mail block added later would use). */
const world = {
  workDir: '',
  pg: null as PostgresCluster | null,
  db: null as Kysely<Database> | null,
  mailbox: null as Mailbox | null,
  server: null as { main: string; remove(): void } | null,
  sandbox: null as Spawned | null,
  kubeconfig: '',
  auditLog: '',
  staticDir: '',
  replicas: [] as Replica[],
  /** Every replica process started, killed ones included (for their logs). */
  started: [] as Replica[],
  people: {} as Record<'manager' | 'first' | 'second' | 'third' | 'guesser', Person>,
  teamId: 0,
  teamName: '',
  tokens: new Map<string, string>(),
  pushers: [] as Pusher[],
};

const db = () => world.db!;
const replica = (name: string) => world.replicas.find((one) => one.name === name)!;
const living = () => world.replicas.filter((one) => one.process.alive());

/** Starts (or restarts, with the same ports and storage) a replica, and waits until it answers /readyz. */
async function startReplica(name: string, ports?: { port: number; realtimePort: number }): Promise<Replica> {
  const port = ports?.port ?? (await freePort());
  const realtimePort = ports?.realtimePort ?? (await freePort());
  const storage = join(world.workDir, `storage-${name}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    REVERB_PORT: String(realtimePort),
    STORAGE_DIR: storage,
    STATIC_DIR: world.staticDir,
    APP_URL: `http://127.0.0.1:${port}`,
    APP_KEY,
    DATABASE_URL: world.pg!.url,
    DATABASE_POOL_SIZE: '5',
    DATABASE_WAIT_SECONDS: '30',
    MAIL_URL: world.mailbox!.url,
    CLUSTER: 'kubernetes',
    KUBECONFIG: world.kubeconfig,
    RATE_LIMITS: 'on',
    LOG_LEVEL: 'info',
  };
  delete env.NODE_ENV;
  delete env.TEST_POSTGRES_URL;
  const process_ = spawnLogged(process.execPath, ['--enable-source-maps', world.server!.main], { env });
  const started: Replica = { name, port, realtimePort, url: `http://127.0.0.1:${port}`, storage, process: process_ };
  world.replicas = [...world.replicas.filter((one) => one.name !== name), started];
  world.started.push(started);
  await waitUntilAnswering(`${started.url}/readyz`, process_.child, process_.output, 60_000);
  return started;
}

/** The replica's /metrics, as numbers: leader (0/1) and reconciler passes so far. */
async function metricsOf(target: Replica): Promise<{ leader: number; passes: number }> {
  const text = await (await fetch(`${target.url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  const leader = /^leader (\d+)$/m.exec(text);
  if (!leader) throw new Error(`no leader gauge in /metrics of ${target.name}`);
  const passes = [...text.matchAll(/^reconciler_passes_total\{result="\w+"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  return { leader: Number(leader[1]), passes };
}

/** Waits until exactly one living replica reports `leader 1` (and the others 0); answers it. */
async function theLeader(timeoutMs = 10_000): Promise<Replica> {
  return eventually(
    async () => {
      const reports = await Promise.all(living().map(async (one) => ({ one, ...(await metricsOf(one)) })));
      const leaders = reports.filter((report) => report.leader === 1);
      if (leaders.length !== 1) throw new Error(`leaders: ${leaders.map((report) => report.one.name).join(', ') || 'none'}`);
      return leaders[0].one;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

async function api(target: Replica, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

/** Logs a person in on a replica; the token works on every replica. */
async function logIn(person: Person, on: Replica): Promise<string> {
  const answer = await api(on, 'POST', '/login', undefined, { email: person.email, password: PASSWORD });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  world.tokens.set(person.email, answer.json.token);
  return answer.json.token as string;
}
const tokenOf = (person: Person) => world.tokens.get(person.email)!;

/** A pusher-js client on a replica's realtime port, subscribed to the person's user channel, recording events. */
async function listenOn(target: Replica, person: Person): Promise<{ client: Pusher; events: { event: string; data: any }[] }> {
  const client = new Pusher(REALTIME_KEY, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: target.realtimePort,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: `${target.url}/broadcasting/auth`,
      transport: 'ajax',
      headers: { Authorization: `Bearer ${tokenOf(person)}`, Accept: 'application/json' },
    },
  });
  world.pushers.push(client);
  const events: { event: string; data: any }[] = [];
  const name = `private-App.User.${person.id}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no subscription to ${name} on ${target.name}`)), 15_000);
    const channel = client.subscribe(name);
    channel.bind('pusher:subscription_succeeded', () => {
      clearTimeout(timer);
      resolve();
    });
    channel.bind('pusher:subscription_error', (error: unknown) => {
      clearTimeout(timer);
      reject(new Error(`subscription to ${name} refused: ${JSON.stringify(error)}`));
    });
    channel.bind_global((event: string, data: unknown) => {
      if (!event.startsWith('pusher')) events.push({ event, data });
    });
  });
  return { client, events };
}

/** Every API request the sandbox was sent so far (its --audit-log). */
function audit(): AuditEntry[] {
  const lines = readFileSync(world.auditLog, 'utf8').split('\n');
  const entries: AuditEntry[] = [];
  for (const line of lines) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as AuditEntry);
    } catch {
      // a line being appended right now
    }
  }
  return entries;
}
const writesIn = (entries: AuditEntry[]) => entries.filter((entry) => !READS.has(entry.verb)).map((entry) => `${entry.verb} ${entry.path}`);

/** Waits until the database has no cluster work waiting (every workspace and membership ready). */
async function clusterWorkDone(timeoutMs = 20_000): Promise<void> {
  await eventually(
    async () => {
      const workspaces = await db().selectFrom('workspaces').select(['namespace', 'cluster_state', 'cluster_error']).execute();
      const members = await db().selectFrom('workspace_members').select(['user_id', 'cluster_state', 'cluster_error']).execute();
      const waiting = [...workspaces, ...members].filter((row) => row.cluster_state !== 'ready');
      if (waiting.length > 0) throw new Error(`cluster work waiting: ${JSON.stringify(waiting)}`);
    },
    { timeoutMs, intervalMs: 100 },
  );
}

function namespaceReader(): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(world.kubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

/** For failure messages: each replica's errors (pino level 50 and up, crashes) and the end of its output. */
function failureContext(): string {
  return world.replicas
    .map((one) => {
      const output = one.process.output();
      const errors = output.split('\n').filter((line) => /"level":(50|60)/.test(line) || /^\w*Error\b/.test(line));
      return `--- ${one.name} (${one.process.alive() ? 'alive' : 'exited'}) ---\n${errors.join('\n')}\n…\n${output.slice(-3000)}`;
    })
    .join('\n');
}

describe.runIf(enabled)('three replicas on one PostgreSQL', () => {
  beforeAll(async () => {
    const started = Date.now();
    world.workDir = mkdtempSync(join(tmpdir(), 'testbed-replicas-'));
    world.staticDir = join(world.workDir, 'dist');
    mkdirSync(world.staticDir);
    writeFileSync(join(world.staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
    world.auditLog = join(world.workDir, 'audit.log');
    const sandboxStorage = join(world.workDir, 'sandbox');
    world.kubeconfig = join(sandboxStorage, 'sandbox-cluster', 'admin.kubeconfig');

    // The database, the SMTP catcher, the compiled server and the shared sandbox, side by side.
    world.sandbox = spawnLogged(process.execPath, [
      '--import',
      'tsx',
      'server/src/cluster/sandbox/standalone.ts',
      '--port',
      '0',
      '--storage',
      sandboxStorage,
      '--audit-log',
      world.auditLog,
    ]);
    const lap = (what: string) => console.log(`replicas.test: ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const [pg, mailbox, server] = await Promise.all([
      startPostgresCluster(pgBin!).finally(() => lap('postgres')),
      startMailbox(),
      buildServerCopy().finally(() => lap('build')),
    ]);
    world.pg = pg;
    world.mailbox = mailbox;
    world.server = server;
    world.db = createDatabase(pg.url, { onPoolError: () => undefined });
    await migrate(world.db);
    await seed();
    lap('migrated and seeded');
    await waitForOutput(world.sandbox, 'Console replicas:');
    lap('sandbox');

    await Promise.all(NAMES.map((name) => startReplica(name)));
    console.log(`replicas.test: three replicas ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);

  afterAll(async () => {
    // REPLICAS_TEST_LOGS=<dir> keeps every process's output there.
    const keep = process.env.REPLICAS_TEST_LOGS;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      for (const one of world.started) writeFileSync(join(keep, `replica-${one.name}-${one.process.child.pid}.log`), one.process.output());
      if (world.sandbox) writeFileSync(join(keep, 'sandbox.log'), world.sandbox.output());
      if (world.pg) writeFileSync(join(keep, 'postgres.log'), world.pg.log());
    }
    for (const client of world.pushers) client.disconnect();
    for (const one of world.replicas) if (one.process.alive()) one.process.child.kill('SIGKILL');
    if (world.sandbox?.alive()) world.sandbox.child.kill('SIGKILL');
    await world.db?.destroy().catch(() => undefined);
    await world.pg?.stop();
    await world.mailbox?.close();
    world.server?.remove();
    if (world.workDir) rmSync(world.workDir, { recursive: true, force: true });
  }, 30_000);

  /** A team (its owner manages it), three members, and somebody whose password is guessed. */
  async function seed() {
    const now = timestamp();
    const hash = await hashPassword(PASSWORD);
    const tag = `r${Date.now().toString(36)}`;
    const person = async (key: keyof typeof world.people) => {
      const email = `${key}.${tag}@example.org`;
      const row = await db()
        .insertInto('users')
        .values({ firstname: key, lastname: 'Replica', email, password_hash: hash, email_verified_at: now, aup_accepted_at: now, admin: 0, enabled: 1, authority: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      world.people[key] = { id: row.id, email };
    };
    for (const key of ['manager', 'first', 'second', 'third', 'guesser'] as const) await person(key);
    const team = await db()
      .insertInto('teams')
      .values({ name: tag, fullname: `Team ${tag}`, shortname: tag, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    world.teamId = team.id;
    world.teamName = tag;
    for (const key of ['manager', 'first', 'second', 'third'] as const) {
      await db()
        .insertInto('team_members')
        .values({ team_id: team.id, user_id: world.people[key].id, role: key === 'manager' ? 'owner' : 'member', enabled: 1, created_at: now })
        .execute();
    }
  }

  describe('realtime across replicas (a)', () => {
    it('a client on B hears a join request made on A and one made on C, each exactly once', { timeout: 60_000 }, async () => {
      const [a, b, c] = NAMES.map(replica);
      const { manager, first, second } = world.people;
      await logIn(manager, a);
      await logIn(first, a);
      await logIn(second, c);
      // The manager's workspace, approved at once: the leader makes its namespace.
      const created = await api(a, 'POST', '/api/requests/workspaces', tokenOf(manager), { label: 'Alpha', name: 'alpha', team_id: world.teamId });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      expect(created.json.status).toBe('Approved');

      const heard = await listenOn(b, manager);
      const onA = await api(a, 'PATCH', '/api/requests/workspaces/', tokenOf(first), { team_id: world.teamId, name: 'alpha', message: 'from A' });
      expect(onA.status, JSON.stringify(onA.json)).toBe(201);
      const onC = await api(c, 'PATCH', '/api/requests/workspaces/', tokenOf(second), { team_id: world.teamId, name: 'alpha', message: 'from C' });
      expect(onC.status, JSON.stringify(onC.json)).toBe(201);
      expect([onA.json.status, onC.json.status]).toEqual(['Pending', 'Pending']);

      const created_ = () => heard.events.filter((entry) => entry.event === 'RequestCreated');
      await eventually(() => expect(created_().map((entry) => entry.data.id).sort()).toEqual([onA.json.id, onC.json.id].sort()), { timeoutMs: 10_000 });
      // And nothing more: no replica delivers twice, whoever published.
      await pause(1000);
      expect(created_().map((entry) => entry.data.id).sort()).toEqual([onA.json.id, onC.json.id].sort());
      expect(created_().find((entry) => entry.data.id === onA.json.id)?.data).toMatchObject({ type: 'JoinWorkspace', message: 'from A', can_decide: true });
    });

    it('the requester listening on B hears the decision made on C exactly once', async () => {
      const [b, c] = ['B', 'C'].map(replica);
      const { manager, first } = world.people;
      const heard = await listenOn(b, first);
      const pending = await db().selectFrom('requests').select('id').where('user_id', '=', first.id).where('status', '=', 'Pending').executeTakeFirstOrThrow();
      const decided = await api(c, 'PATCH', `/api/requests/${pending.id}`, tokenOf(manager), { action: 'approve', message: 'Welcome' });
      expect(decided.status, JSON.stringify(decided.json)).toBe(200);
      const decisions = () => heard.events.filter((entry) => entry.event === 'RequestDecided');
      await eventually(() => expect(decisions()).toHaveLength(1), { timeoutMs: 10_000 });
      await pause(500);
      expect(decisions().map((entry) => [entry.data.id, entry.data.status])).toEqual([[pending.id, 'Approved']]);
    });
  });

  describe('rate limits across replicas (c)', () => {
    it('five wrong passwords spread over A, B and C: the sixth answers 429, on any replica', async () => {
      const { guesser } = world.people;
      const order = ['A', 'B', 'C', 'A', 'B'];
      for (const [index, name] of order.entries()) {
        const answer = await api(replica(name), 'POST', '/login', undefined, { email: guesser.email, password: `wrong password ${index}` });
        expect(answer.status, `attempt ${index + 1} on ${name}: ${JSON.stringify(answer.json)}`).toBe(422);
      }
      const sixth = await api(replica('C'), 'POST', '/login', undefined, { email: guesser.email, password: PASSWORD });
      expect(sixth.status).toBe(429);
      const seventh = await api(replica('A'), 'POST', '/login', undefined, { email: guesser.email, password: 'wrong again' });
      expect(seventh.status).toBe(429);
    });
  });

  describe('one leader, handed over (b)', () => {
    it('exactly one replica leads; SIGKILLed, another leads within 10 s, resyncs without writing, and later approvals reach the cluster', async () => {
      await clusterWorkDone();
      const leader = await theLeader();
      const auditBefore = audit().length;
      const killedAt = Date.now();
      leader.process.child.kill('SIGKILL');
      await leader.process.exited;

      const next = await theLeader(10_000);
      const handedOverMs = Date.now() - killedAt;
      expect(next.name).not.toBe(leader.name);
      expect(handedOverMs).toBeLessThan(10_000);
      console.log(`replicas.test: leader ${leader.name} killed, ${next.name} leads after ${handedOverMs} ms`);

      // Taking over, the new leader re-applies everything (a full resync): reads only.
      await eventually(async () => expect((await metricsOf(next)).passes).toBeGreaterThanOrEqual(1), { timeoutMs: 15_000, intervalMs: 200 });
      const resync = audit().slice(auditBefore);
      expect(resync.filter((entry) => entry.verb === 'get').length).toBeGreaterThan(0);
      expect(writesIn(resync)).toEqual([]);
      const auditAfterResync = audit().length;

      // The killed replica comes back meanwhile (same ports and storage), and will follow.
      const [asker, decider] = living();
      const rejoined = startReplica(leader.name, { port: leader.port, realtimePort: leader.realtimePort });

      // An approval made afterwards (asked on one survivor, approved on the other) reaches the cluster.
      const { manager, third } = world.people;
      await logIn(third, asker);
      const asked = await api(asker, 'POST', '/api/requests/workspaces', tokenOf(third), { label: 'Beta', name: 'beta', team_id: world.teamId });
      expect(asked.status, JSON.stringify(asked.json)).toBe(201);
      expect(asked.json.status).toBe('Pending');
      const approved = await api(decider, 'PATCH', `/api/requests/${asked.json.id}`, tokenOf(manager), { action: 'approve' });
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      const namespace = `${world.teamName}-beta`;
      const core = namespaceReader();
      const found = await eventually(() => core.readNamespace({ name: namespace }), { timeoutMs: 15_000, intervalMs: 200 });
      expect(found.metadata?.labels).toMatchObject({ 'testbed.io/workspace': 'beta', 'app.kubernetes.io/managed-by': 'testbed-console' });
      await clusterWorkDone();
      // Made once: the workspace's namespace, quota, limit range and policy, the requester's account and binding.
      expect(writesIn(audit().slice(auditAfterResync)).sort()).toEqual(
        [
          'create /api/v1/namespaces',
          `create /api/v1/namespaces/${namespace}/resourcequotas`,
          `create /api/v1/namespaces/${namespace}/limitranges`,
          `create /apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies`,
          'create /api/v1/namespaces/testbed-identities/serviceaccounts',
          `create /apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`,
        ].sort(),
      );

      await rejoined;
      expect((await metricsOf(replica(leader.name))).leader).toBe(0);
      expect((await theLeader()).name).toBe(next.name);
    }, 90_000);
  });

  describe('a PostgreSQL restart (d)', () => {
    it('leaves every replica up: 503 rather than 500 meanwhile, ready within 10 s after, one leader, the bus working again', async () => {
      const { manager, third } = world.people;
      const statuses = new Map<string, number>();
      const problems: string[] = [];
      let loading = true;
      // Requests that need the database, on every replica, all along.
      const load = Promise.all(
        world.replicas.map(async (one) => {
          while (loading) {
            for (const path of ['/api/requests', '/readyz']) {
              try {
                const response = await fetch(`${one.url}${path}`, {
                  headers: { accept: 'application/json', authorization: `Bearer ${tokenOf(manager)}` },
                  signal: AbortSignal.timeout(10_000),
                });
                await response.text();
                const key = `${response.status}`;
                statuses.set(key, (statuses.get(key) ?? 0) + 1);
                if (response.status >= 500 && response.status !== 503) problems.push(`${one.name} ${path}: ${response.status}`);
              } catch (error) {
                problems.push(`${one.name} ${path}: ${(error as Error).message}`);
              }
            }
            await pause(50);
          }
        }),
      );
      let readyAfterMs: number;
      try {
        await pause(300);
        await world.pg!.restart();
        const restartedAt = Date.now();
        await Promise.all(
          world.replicas.map((one) =>
            eventually(
              async () => {
                expect(one.process.alive(), `${one.name} exited`).toBe(true);
                const ready = await fetch(`${one.url}/readyz`, { signal: AbortSignal.timeout(3000) });
                expect(ready.status).toBe(200);
              },
              { timeoutMs: 10_000, intervalMs: 100 },
            ),
          ),
        );
        readyAfterMs = Date.now() - restartedAt;
        await pause(500);
      } finally {
        loading = false;
        await load;
      }
      console.log(`replicas.test: PostgreSQL restarted; all ready ${readyAfterMs} ms after; answers during the restart: ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(problems, failureContext()).toEqual([]);
      expect(world.replicas.every((one) => one.process.alive())).toBe(true);
      expect(statuses.get('500')).toBeUndefined();

      // Exactly one leader again, and the bus carries events again (a request made on A, heard on B).
      await theLeader(15_000);
      const heard = await listenOn(replica('B'), manager);
      const asked = await api(replica('A'), 'PATCH', '/api/requests/workspaces/', tokenOf(third), { team_id: world.teamId, name: 'alpha', message: 'after the restart' });
      expect(asked.status, JSON.stringify(asked.json)).toBe(201);
      await eventually(() => expect(heard.events.filter((entry) => entry.event === 'RequestCreated').map((entry) => entry.data.id)).toEqual([asked.json.id]), { timeoutMs: 10_000 });
      await pause(500);
      expect(heard.events.filter((entry) => entry.event === 'RequestCreated')).toHaveLength(1);
    }, 60_000);
  });

  describe('the cluster across the whole run (b)', () => {
    it('got each object created once, by one replica, and no other write', async () => {
      await clusterWorkDone();
      // Whoever leads now has resynced at least once (at its start).
      const leader = await theLeader();
      await eventually(async () => expect((await metricsOf(leader)).passes).toBeGreaterThanOrEqual(1), { timeoutMs: 15_000, intervalMs: 200 });
      const writes = writesIn(audit());
      expect(writes.filter((write) => !write.startsWith('create ')), 'writes other than creates').toEqual([]);
      const workspaces = await db().selectFrom('workspaces').select('namespace').execute();
      const members = await db().selectFrom('workspace_members').select('user_id').execute();
      const count = (path: string) => writes.filter((write) => write === `create ${path}`).length;
      expect(count('/api/v1/namespaces')).toBe(workspaces.length + 1); // and testbed-identities
      for (const { namespace } of workspaces) {
        expect(count(`/api/v1/namespaces/${namespace}/resourcequotas`), namespace).toBe(1);
        expect(count(`/api/v1/namespaces/${namespace}/limitranges`), namespace).toBe(1);
        expect(count(`/apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies`), namespace).toBe(1);
      }
      expect(count('/apis/rbac.authorization.k8s.io/v1/clusterroles')).toBe(2);
      expect(count('/api/v1/namespaces/testbed-identities/serviceaccounts')).toBe(members.length);
      expect(writes.filter((write) => write.endsWith('/rolebindings'))).toHaveLength(members.length);
      expect(writes).toHaveLength(4 * workspaces.length + 1 + 2 + 2 * members.length);
    }, 60_000);
  });

  describe('shutdown (e)', () => {
    it('SIGTERM ends each replica with exit code 0', async () => {
      const exits = await Promise.all(
        world.replicas.map(async (one) => {
          one.process.child.kill('SIGTERM');
          const { code, signal } = await one.process.exited;
          return `${one.name}: ${code ?? signal}`;
        }),
      );
      expect(exits, failureContext()).toEqual(world.replicas.map((one) => `${one.name}: 0`));
      world.sandbox!.child.kill('SIGTERM');
      expect((await world.sandbox!.exited).code).toBe(0);
    }, 30_000);
  });
});
