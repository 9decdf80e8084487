import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { e2eRuntimeDir } from '../../playwright.config';

// Usage as the leader's accounting would have recorded it (its hours and the days summed from
// them, through the pass's own `addUsage`), written straight into the database of the server under test (as users.ts creates people): thirty days of pods running cannot be
// waited for in a browser test. The accounting itself is tested against the sandbox cluster in
// server/test/usageAccounting.test.ts.

export interface UsageRow {
  workspace_id: number;
  team_id: number;
  hour_start: string;
  cpu_core_hours: number;
  memory_gib_hours: number;
}

const SCRIPT = `
import { createDatabase } from './server/src/db/database.ts';
import { addUsage } from './server/src/usage/accounting.ts';
const db = createDatabase('sqlite:' + process.env.E2E_DATABASE_FILE);
const { rows, teams } = JSON.parse(process.env.E2E_USAGE);
await addUsage(db, rows);
for (const team of teams) await db.updateTable('teams').set({ allocation_core_hours: team.allocation_core_hours }).where('id', '=', team.id).execute();
await db.destroy();
`;

/** Writes usage rows and sets teams' monthly CPU allocations, in the server's SQLite database. */
export function recordUsage(rows: UsageRow[], teams: { id: number; allocation_core_hours: number | null }[] = []): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_DATABASE_FILE: join(e2eRuntimeDir, 'storage', 'console.sqlite'),
    E2E_USAGE: JSON.stringify({ rows, teams }),
  };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { env, stdio: 'pipe' });
}
