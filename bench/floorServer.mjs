// The floor of `npm run bench`'s scenarios (bench/scenarioFloor.ts): a Fastify server with no
// plugin, hook or logger; route /<n> runs the statements one call of scenario n ran in the app,
// with the same parameters, one after another (as the app runs them), each statement prepared
// once, and answers their rows as JSON. FLOOR_DATABASE_URL: sqlite:<file> or postgres://…;
// FLOOR_ROUTES: a JSON file of [[{ sql, parameters }]]. Prints its port once it listens.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const url = process.env.FLOOR_DATABASE_URL;
const routes = JSON.parse(readFileSync(process.env.FLOOR_ROUTES, 'utf8'));

/** @type {(route: number, index: number, statement: { sql: string, parameters: unknown[] }) => Promise<unknown>} */
let run;
/** @type {() => Promise<void>} */
let close;
if (url.startsWith('sqlite:')) {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(url.slice('sqlite:'.length));
  db.pragma('busy_timeout = 5000');
  const prepared = routes.map((statements) => statements.map((statement) => db.prepare(statement.sql)));
  run = async (route, index, statement) => {
    const prepare = prepared[route][index];
    return prepare.reader ? prepare.all(...statement.parameters) : prepare.run(...statement.parameters);
  };
  close = async () => db.close();
} else {
  const { default: pg } = await import('pg');
  // The app's default pool size (server/src/db/database.ts), all opened before listening.
  const pool = new pg.Pool({ connectionString: url, max: 10, min: 10 });
  // Named: pg prepares each once per connection and executes it by name afterwards.
  run = async (route, index, statement) => (await pool.query({ name: `floor_${route}_${index}`, text: statement.sql, values: statement.parameters })).rows;
  close = () => pool.end();
  const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
  for (const client of clients) client.release();
}

const app = Fastify();
routes.forEach((statements, route) => {
  app.get(`/${route}`, async () => {
    const answers = [];
    for (let index = 0; index < statements.length; index += 1) answers.push(await run(route, index, statements[index]));
    return answers;
  });
});
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(app.server.address().port);
process.on('SIGTERM', () => {
  app.close().then(close).then(() => process.exit(0));
});
