import { type Insertable, type Kysely, sql } from 'kysely';
import { dialectOf, timestamp } from './database.js';
import type { ActivityLogTable, Database } from './schema.js';

// `npm run cli -- seed`: a national testbed's worth of plausible data, for trying the admin
// console and benchmarking it at scale (100,000 users). Rows go in as multi-row inserts of ROWS_PER_INSERT,
// INSERTS_PER_TRANSACTION to a transaction, on either database: one statement per row would
// take an hour for a million activity entries; one transaction for everything would hold a
// write lock (and, on PostgreSQL, a huge transaction) for the whole run.
//
// Seeded people cannot log in (their password hash is no hash); seeded workspaces are marked
// ready in the cluster without a namespace behind them, so the reconciler leaves them alone.
// Every name carries the run's tag, so seeding twice adds rather than collides.

export interface SeedOptions {
  users: number;
  teams: number;
  activity: number;
  /** Deterministic data for a given seed. */
  random?: number;
}

export interface SeedResult {
  users: number;
  admins: number;
  teams: number;
  memberships: number;
  workspaces: number;
  workspaceMemberships: number;
  activity: number;
  milliseconds: number;
}

const ROWS_PER_INSERT = 1000;
const INSERTS_PER_TRANSACTION = 5;
const YEAR_MS = 365 * 86_400_000;

const FIRST = ['Ada', 'Alan', 'Amara', 'Anouk', 'Aziz', 'Bea', 'Bjorn', 'Camille', 'Chen', 'Dario', 'Elena', 'Emeka', 'Fatima', 'Giulia', 'Hana', 'Ines', 'Ivan', 'Jonas', 'Julia', 'Kenji', 'Lars', 'Leila', 'Lucas', 'Maja', 'Marta', 'Mateo', 'Nadia', 'Niko', 'Olga', 'Omar', 'Paula', 'Pedro', 'Priya', 'Rafael', 'Rosa', 'Sami', 'Sofia', 'Tariq', 'Teresa', 'Tomas', 'Uma', 'Vera', 'Wei', 'Yara', 'Yusuf', 'Zofia'];
const LAST = ['Andersen', 'Bianchi', 'Costa', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Horvat', 'Ivanova', 'Jansen', 'Kowalski', 'Laurent', 'Martin', 'Novak', 'Okafor', 'Papadopoulos', 'Quinn', 'Rossi', 'Silva', 'Schmidt', 'Tanaka', 'Urban', 'Virtanen', 'Weber', 'Xu', 'Yilmaz', 'Zimmermann', 'Moreau', 'Nowak', 'Ferreira'];
const PLACES = ['Lyon', 'Delft', 'Turku', 'Porto', 'Gent', 'Brno', 'Graz', 'Pisa', 'Bilbao', 'Tartu', 'Cork', 'Lund', 'Liège', 'Kaunas', 'Malmö'];
const FIELDS = ['Edge AI', 'Networks', 'Robotics', 'IoT', 'Distributed Systems', 'Vision', 'Energy', 'Security', 'Mobility', 'Health'];
const KINDS = ['University', 'Institute', 'Lab', 'School'];
const WORKSPACES = ['dev', 'staging', 'ml', 'course', 'demo', 'thesis'];
const COUNTRIES = ['FR', 'NL', 'FI', 'PT', 'BE', 'CZ', 'AT', 'IT', 'ES', 'EE', 'IE', 'SE'];
const EVENTS: { description: string; subject: 'user' | 'team' | 'workspace'; severity: 'info' | 'warning' | 'error' }[] = [
  { description: 'logged in', subject: 'user', severity: 'info' },
  { description: 'logged in', subject: 'user', severity: 'info' },
  { description: 'personal access token created', subject: 'user', severity: 'info' },
  { description: 'kubeconfig downloaded', subject: 'workspace', severity: 'info' },
  { description: 'workspace created', subject: 'workspace', severity: 'info' },
  { description: 'joined team', subject: 'team', severity: 'info' },
  { description: 'team member role changed', subject: 'team', severity: 'warning' },
  { description: 'failed login', subject: 'user', severity: 'warning' },
  { description: 'namespace reconciliation failed', subject: 'workspace', severity: 'error' },
];

/** A small seeded generator (mulberry32): the same options give the same data. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]) => items[int(items.length)] };
}

const ascii = (text: string) => text.normalize('NFD').replace(/[^a-zA-Z]/g, '').toLowerCase();

/** Inserts `count` rows made by `make`, in batches; answers the new ids when `ids` is asked. */
async function bulkInsert<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  count: number,
  make: (index: number) => Insertable<Database[T]>,
  ids = false,
): Promise<number[]> {
  const created: number[] = [];
  const perTransaction = ROWS_PER_INSERT * INSERTS_PER_TRANSACTION;
  for (let start = 0; start < count; start += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let batch = start; batch < Math.min(count, start + perTransaction); batch += ROWS_PER_INSERT) {
        const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, count - batch) }, (_, offset) => make(batch + offset));
        // The generic table type is too wide for Kysely's inference; the rows are checked by make's type.
        const insert = trx.insertInto(table as keyof Database).values(rows as never);
        if (ids) created.push(...(await insert.returning('id' as never).execute()).map((row) => (row as { id: number }).id));
        else await insert.execute();
      }
    });
  }
  return created;
}

/**
 * SQLite: runs `insert` with the activity search trigger (migration 0010) dropped, then
 * indexes the new entries in one statement and puts the trigger back. Row by row, the FTS
 * index of a million near-identical descriptions takes minutes; in one go, far less.
 */
async function withoutActivitySearchTrigger(db: Kysely<Database>, insert: () => Promise<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await insert();
    return;
  }
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and name = 'activity_log_fts_insert'`.execute(db);
  const trigger = rows[0]?.sql;
  if (!trigger) {
    await insert();
    return;
  }
  const { rows: before } = await sql<{ last: number | null }>`select max(id) as last from activity_log`.execute(db);
  await sql`drop trigger activity_log_fts_insert`.execute(db);
  try {
    await insert();
  } finally {
    await sql`insert into activity_log_fts (rowid, description) select id, description from activity_log where id > ${before[0]?.last ?? 0}`.execute(db);
    await sql.raw(trigger).execute(db);
  }
}

export async function seedDatabase(db: Kysely<Database>, options: SeedOptions, progress: (line: string) => void = () => {}): Promise<SeedResult> {
  const started = Date.now();
  const random = generator(options.random ?? started);
  const tag = started.toString(36);
  const now = Date.now();
  const past = () => timestamp(new Date(now - random.int(YEAR_MS)));
  const admins = Math.min(options.users, 5);

  const userIds = await bulkInsert(
    db,
    'users',
    options.users,
    (n) => {
      const firstname = random.pick(FIRST);
      const lastname = random.pick(LAST);
      const created = past();
      return {
        firstname,
        lastname,
        email: `${ascii(firstname)}.${ascii(lastname)}.${n}.${tag}@${ascii(random.pick(PLACES))}.example.org`,
        password_hash: 'seeded: no password',
        // Most people finished onboarding; some never verified or never accepted the policy.
        email_verified_at: random.next() < 0.93 ? created : null,
        aup_accepted_at: random.next() < 0.9 ? created : null,
        admin: n < admins ? 1 : 0,
        enabled: random.next() < 0.97 ? 1 : 0,
        authority: null,
        created_at: created,
        updated_at: created,
      };
    },
    true,
  );
  progress(`${userIds.length} users`);

  const teamIds = await bulkInsert(
    db,
    'teams',
    options.teams,
    (n) => {
      const place = random.pick(PLACES);
      const field = random.pick(FIELDS);
      const shortname = `${ascii(place)}${n}${tag}`.slice(0, 40);
      const created = past();
      return {
        name: shortname,
        shortname,
        fullname: `${place} ${field} ${random.pick(KINDS)} ${n}`,
        affiliation: `${random.pick(KINDS)} of ${place}`,
        city: place,
        country: random.pick(COUNTRIES),
        url: null,
        joining_reason: null,
        joining_category: null,
        created_at: created,
        updated_at: created,
      };
    },
    true,
  );
  progress(`${teamIds.length} teams`);

  // Memberships: each team an owner and 2–20 more people, no one twice in a team.
  const memberships: { team_id: number; user_id: number; role: 'owner' | 'manager' | 'member' }[] = [];
  const teamMembers = new Map<number, number[]>();
  if (userIds.length > 0) {
    for (const teamId of teamIds) {
      const people = new Set<number>();
      const size = Math.min(userIds.length, 3 + random.int(19));
      while (people.size < size) people.add(userIds[random.int(userIds.length)]);
      const list = [...people];
      teamMembers.set(teamId, list);
      list.forEach((userId, index) => memberships.push({ team_id: teamId, user_id: userId, role: index === 0 ? 'owner' : index < 3 ? 'manager' : 'member' }));
    }
  }
  const joined = past();
  await bulkInsert(db, 'team_members', memberships.length, (n) => ({ ...memberships[n], enabled: 1, created_at: joined }));
  progress(`${memberships.length} team memberships`);

  // Workspaces: 0–3 per team, each with 1–5 of the team's people.
  const workspaces: { team_id: number; name: string }[] = [];
  teamIds.forEach((teamId, index) => {
    const count = random.int(4);
    for (let w = 0; w < count; w += 1) {
      const name = `${WORKSPACES[(index + w) % WORKSPACES.length]}${w}`;
      workspaces.push({ team_id: teamId, name });
    }
  });
  const teamNames = new Map<number, string>();
  for (let start = 0; start < teamIds.length; start += ROWS_PER_INSERT) {
    const chunk = teamIds.slice(start, start + ROWS_PER_INSERT);
    for (const row of await db.selectFrom('teams').select(['id', 'name']).where('id', 'in', chunk).execute()) teamNames.set(row.id, row.name);
  }
  const synced = timestamp();
  const workspaceIds = await bulkInsert(
    db,
    'workspaces',
    workspaces.length,
    (n) => {
      const workspace = workspaces[n];
      const created = past();
      return {
        team_id: workspace.team_id,
        name: workspace.name,
        label: `${workspace.name[0].toUpperCase()}${workspace.name.slice(1)} of ${teamNames.get(workspace.team_id)}`,
        description: null,
        namespace: `${teamNames.get(workspace.team_id)}-${workspace.name}`,
        created_at: created,
        updated_at: created,
        cluster_state: 'ready' as const,
        cluster_synced_at: synced,
      };
    },
    true,
  );
  const workspaceMembers: { workspace_id: number; user_id: number; role: 'manager' | 'member' }[] = [];
  workspaceIds.forEach((workspaceId, index) => {
    const people = teamMembers.get(workspaces[index].team_id) ?? [];
    people.slice(0, 1 + random.int(5)).forEach((userId, position) => workspaceMembers.push({ workspace_id: workspaceId, user_id: userId, role: position === 0 ? 'manager' : 'member' }));
  });
  await bulkInsert(db, 'workspace_members', workspaceMembers.length, (n) => ({ ...workspaceMembers[n], created_at: joined, cluster_state: 'ready' as const, cluster_synced_at: synced }));
  progress(`${workspaceIds.length} workspaces, ${workspaceMembers.length} workspace memberships`);

  // Activity needs people to have caused it.
  const activity = userIds.length === 0 ? 0 : options.activity;
  await withoutActivitySearchTrigger(db, () => bulkInsert(db, 'activity_log', activity, (): Insertable<ActivityLogTable> => {
    const event = random.pick(EVENTS);
    const causer = userIds[random.int(userIds.length)];
    const subjects = event.subject === 'team' ? teamIds : event.subject === 'workspace' ? workspaceIds : null;
    const subject = subjects === null ? causer : subjects.length > 0 ? subjects[random.int(subjects.length)] : null;
    return {
      causer_id: causer,
      description: event.description,
      subject_type: subject === null ? null : event.subject,
      subject_id: subject,
      properties: JSON.stringify({ severity: event.severity }),
      created_at: past(),
    };
  }));
  progress(`${activity} activity entries`);

  return {
    users: userIds.length,
    admins: Math.min(admins, userIds.length),
    teams: teamIds.length,
    memberships: memberships.length,
    workspaces: workspaceIds.length,
    workspaceMemberships: workspaceMembers.length,
    activity,
    milliseconds: Date.now() - started,
  };
}
