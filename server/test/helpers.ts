// The server tests' one import. A test gets its world from createTestContext (the app on a real
// database and a real SMTP server, plus the sandbox cluster, reconciler, node watcher and
// realtime server when it asks for them); the parts behind it live in kit/. Tests of one part
// alone (the database layer, the mailer) may take that part: createTestDatabase, startMailbox.

export {
  type Broadcast,
  createTestContext,
  DEFAULT_PASSWORD,
  type Inject,
  type InjectOptions,
  type SignedInUser,
  TEST_APP_URL,
  type TestContext,
  type TestContextOptions,
  type TestUser,
} from './kit/context.js';
export type { TestCluster, TestClusterOptions } from './kit/cluster.js';
export { createTestDatabase, type TestDatabase, usingPostgres } from './kit/database.js';
export { type CaughtMail, linkIn, type Mailbox, startMailbox } from './kit/mailbox.js';
export { REALTIME_APP_KEY, type TestRealtime, type TestRealtimeOptions } from './kit/realtime.js';
export { eventually, type EventuallyOptions, freePort, pause, unique, uniqueEmail } from './kit/utilities.js';
export { lifecycleRunner } from './kit/lifecycle.js';
