import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';
import { type BusMessage, busBroadcaster, localBus, postgresBus, type RealtimeBus } from '../src/realtime/bus.js';
import { postgresLeader, soleLeader } from '../src/replicas/leader.js';
import { eventually, pause } from './helpers.js';

// The parts several replicas share: the realtime bus and the leader lock, each
// tried as two or three "replicas" in one process on one PostgreSQL. The whole thing, as
// separate processes, is server/test/replicas.test.ts.
//
// PostgreSQL: DATABASE_URL when it is one (the PostgreSQL pass of npm test), else
// TEST_POSTGRES_URL (.ci/run sets it for the SQLite pass too), so these run in both passes.
const postgresUrl = [process.env.DATABASE_URL, process.env.TEST_POSTGRES_URL].find((url) => /^postgres(ql)?:\/\//.test(url ?? ''));
if (!postgresUrl && process.env.CI) throw new Error('replicaParts.test.ts needs PostgreSQL in CI: set TEST_POSTGRES_URL');
if (!postgresUrl) console.warn('\n*** SKIPPING the PostgreSQL bus and leader tests: no DATABASE_URL or TEST_POSTGRES_URL for PostgreSQL ***\n');


describe('the in-process bus (SQLite: one process)', () => {
  it('hands every message to every handler once, after the publishing tick', async () => {
    const bus = localBus();
    const heard: BusMessage[] = [];
    bus.onMessage((message) => heard.push(message));
    busBroadcaster(bus).toUser(7, 'RequestDecided', { id: 1 });
    busBroadcaster(bus).rightsChanged([]);
    expect(heard).toEqual([]);
    await eventually(() => expect(heard).toEqual([{ kind: 'broadcast', channel: 'private-App.User.7', event: 'RequestDecided', payload: { id: 1 } }]), { timeoutMs: 10_000 });
  });

  it('leads alone from the start', async () => {
    const events: string[] = [];
    const election = soleLeader({ start: () => void events.push('start'), stop: () => void events.push('stop') });
    expect(election.isLeader()).toBe(true);
    await election.close();
    expect(events).toEqual(['start', 'stop']);
  });
});

describe.runIf(postgresUrl)('on PostgreSQL', () => {
  const url = postgresUrl as string;
  const schema = `replicas_${process.pid}_${randomBytes(3).toString('hex')}`;
  let admin: Kysely<Database>;
  let db: Kysely<Database>;

  beforeAll(async () => {
    admin = createDatabase(url);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    db = createDatabase(url, { searchPath: schema });
    await migrate(db);
  });
  afterAll(async () => {
    await db.destroy();
    await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
    await admin.destroy();
  });

  /** The backend pids of this schema's listening or locking sessions, to kill them. */
  const backends = async (query: string) =>
    (await sql<{ pid: number }>`select pid from pg_stat_activity where query like ${query} and pid <> pg_backend_pid()`.execute(admin)).rows.map(
      (row) => row.pid,
    );

  describe('the LISTEN/NOTIFY bus', () => {
    const channel = `bus_${schema}`;
    const buses: RealtimeBus[] = [];
    const heard: BusMessage[][] = [[], [], []];

    beforeAll(async () => {
      for (let index = 0; index < 3; index++) {
        const bus = postgresBus({ url, db, channel, searchPath: schema, maxBackoffMs: 200 });
        bus.onMessage((message) => heard[index].push(message));
        buses.push(bus);
      }
      await Promise.all(buses.map((bus) => bus.ready()));
    });
    afterAll(async () => {
      await Promise.all(buses.map((bus) => bus.close()));
    });
    const clear = () => heard.forEach((list) => list.splice(0));

    it('delivers what one replica publishes to every replica, itself included, exactly once', async () => {
      clear();
      busBroadcaster(buses[0]).toWorkspace(3, 'PodChanged', { name: 'web' });
      busBroadcaster(buses[2]).rightsChanged([4, 5]);
      const expected = [
        { kind: 'broadcast', channel: 'private-workspace.3', event: 'PodChanged', payload: { name: 'web' } },
        { kind: 'rights', userIds: [4, 5] },
      ];
      // Two publishers (two sessions): PostgreSQL delivers each one's notifications in order, but
      // not the two in the order they were sent (seen on a busy CI machine), so any order here.
      await eventually(() => heard.forEach((list) => expect(list).toEqual(expect.arrayContaining(expected))), { timeoutMs: 10_000 });
      await pause(300);
      heard.forEach((list) => expect(list).toHaveLength(2));
    });

    it('carries messages over the 8,000-byte NOTIFY limit through the database', async () => {
      clear();
      const payload = { lines: 'x'.repeat(20_000) };
      buses[1].publish({ kind: 'broadcast', channel: 'private-App.User.1', event: 'Big', payload });
      await eventually(() => heard.forEach((list) => expect(list).toEqual([{ kind: 'broadcast', channel: 'private-App.User.1', event: 'Big', payload }])), { timeoutMs: 10_000 });
      const stored = await db.selectFrom('realtime_messages').select('id').execute();
      expect(stored).toHaveLength(1);
    });

    it('does not hear another channel on the same database', async () => {
      clear();
      const other = postgresBus({ url, db, channel: `${channel}_other`, searchPath: schema });
      const otherHeard: BusMessage[] = [];
      other.onMessage((message) => otherHeard.push(message));
      await other.ready();
      other.publish({ kind: 'rights', userIds: [1] });
      await eventually(() => expect(otherHeard).toHaveLength(1), { timeoutMs: 10_000 });
      await pause(200);
      heard.forEach((list) => expect(list).toEqual([]));
      await other.close();
    });

    it('listens again after its connection is killed (a PostgreSQL restart, a failover)', async () => {
      clear();
      const pids = await backends(`LISTEN ${channel}`);
      expect(pids.length).toBe(3);
      for (const pid of pids) await sql`select pg_terminate_backend(${pid})`.execute(admin);
      await eventually(async () => {
        const again = await backends(`LISTEN ${channel}`);
        expect(again.length).toBe(3);
        expect(again.some((pid) => pids.includes(pid))).toBe(false);
      }, { timeoutMs: 10_000 });
      buses[0].publish({ kind: 'rights', userIds: [9] });
      await eventually(() => heard.forEach((list) => expect(list).toEqual([{ kind: 'rights', userIds: [9] }])), { timeoutMs: 10_000 });
    });
  });

  describe('the leader lock', () => {
    const key = 1_000_000 + Math.floor(Math.random() * 1_000_000);

    function replica(name: string, log: string[]) {
      return postgresLeader({
        url,
        key,
        retryMs: 100,
        work: { start: () => void log.push(`${name} start`), stop: () => void log.push(`${name} stop`) },
      });
    }

    it('lets exactly one replica lead, and hands over when it stops', async () => {
      const log: string[] = [];
      const replicas = [replica('a', log), replica('b', log), replica('c', log)];
      await eventually(() => expect(replicas.filter((one) => one.isLeader())).toHaveLength(1), { timeoutMs: 10_000 });
      await pause(400);
      expect(replicas.filter((one) => one.isLeader())).toHaveLength(1);
      const first = replicas.findIndex((one) => one.isLeader());
      await replicas[first].close();
      await eventually(() => expect(replicas.filter((one) => one.isLeader())).toHaveLength(1), { timeoutMs: 5000 });
      const second = replicas.findIndex((one) => one.isLeader());
      expect(second).not.toBe(first);
      expect(log.filter((line) => line.endsWith('start'))).toHaveLength(2);
      expect(log).toContain(`${'abc'[first]} stop`);
      await Promise.all(replicas.map((one) => one.close()));
    });

    it('hands over when the leader loses its database session, and the old leader stops its work', async () => {
      const log: string[] = [];
      const replicas = [replica('a', log), replica('b', log)];
      await eventually(() => expect(replicas.filter((one) => one.isLeader())).toHaveLength(1), { timeoutMs: 10_000 });
      const first = replicas.findIndex((one) => one.isLeader());
      const holder = await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and objid = ${key % 2 ** 32} and granted`.execute(admin);
      expect(holder.rows).toHaveLength(1);
      await sql`select pg_terminate_backend(${holder.rows[0].pid})`.execute(admin);
      await eventually(() => expect(log).toContain(`${'ab'[first]} stop`), { timeoutMs: 5000 });
      // Someone leads again (the other replica, or the same one after reconnecting), and only one.
      await eventually(() => expect(replicas.filter((one) => one.isLeader())).toHaveLength(1), { timeoutMs: 5000 });
      await pause(300);
      expect(replicas.filter((one) => one.isLeader())).toHaveLength(1);
      await Promise.all(replicas.map((one) => one.close()));
    });
  });
});
