import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { BackgroundTasks } from '../background.js';
import { dialectOf, timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Mailer, MailMessage } from './mailer.js';

// The mail outbox (safe with several replicas, docs/deploy.md): every mail is a `mail_outbox` row,
// written in the transaction of the action that causes it (a request decision, a password reset…),
// and sent afterwards. A process killed between the commit and the send loses nothing: the row
// waits for a sender.
//
// - enqueueMail: writes the row (pending, due now). Pass the action's transaction.
// - kick(): after the commit, the replica that wrote mails sends them at once (mails arrive
//   within a second, as when they were sent in-process). A kick only takes mails never tried
//   (attempts = 0), newest first, so that a person waiting for a link is not queued behind a
//   burst of other mails; retries are the sweep's.
// - sweep (start/stop, every few seconds, in the leader only): sends every due pending mail,
//   oldest first: retries after a failure (exponential backoff), mails a killed replica had
//   written but not sent, or had claimed and never finished (claim expired). After
//   `maxAttempts` a mail is 'failed' (last_error kept, logged as an error, never with its body).
//   Sent rows are deleted after `keepSentMs`; failed ones are kept for an operator.
//
// Claiming, a batch of `batchSize` mails at a time (same condition on SQLite and PostgreSQL):
//   update mail_outbox set locked_until = now + claimMs, attempts = attempts + 1
//   where id in (…) and status = 'pending' and next_attempt_at <= now
//     and (locked_until is null or locked_until < now)
//   returning …
// Each row matches for one sender only (PostgreSQL re-checks the condition on a row a
// concurrent update committed, and picks the ids FOR UPDATE SKIP LOCKED first; SQLite runs the
// statement with the ids' subquery as one write, one writer at a time), so two live senders
// never send one mail twice. A send takes well under claimMs (the SMTP transport's timeouts,
// mailer.ts); only a claimant that died, or outlived its claim, lets the mail go to another
// sender: delivery is at least once. The attempt is counted at the claim, so a mail whose
// sending kills the process is not retried forever.

/** A transaction or the database itself. */
type Db = Kysely<Database>;

export type OutboxMessage = MailMessage;

/** Writes one mail to the outbox, due now. Inside the action's transaction when there is one. */
export async function enqueueMail(db: Db, message: OutboxMessage, now = new Date()): Promise<number> {
  const [id] = await enqueueMails(db, [message], now);
  return id;
}

/** Rows per insert: well within both databases' limits on bound parameters. */
const INSERT_CHUNK = 500;

/** Writes several mails; answers their ids. */
export async function enqueueMails(db: Db, messages: OutboxMessage[], now = new Date()): Promise<number[]> {
  const at = timestamp(now);
  const ids: number[] = [];
  for (let start = 0; start < messages.length; start += INSERT_CHUNK) {
    const rows = await db
      .insertInto('mail_outbox')
      .values(
        messages.slice(start, start + INSERT_CHUNK).map((message) => ({
          recipient: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: at,
          locked_until: null,
          last_error: null,
          created_at: at,
          sent_at: null,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Mails written but not sent yet (the `mail_outbox_depth` gauge). */
export async function pendingMailCount(db: Db): Promise<number> {
  const row = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Waits between attempts: after the 1st failure 10 s, then 30 s, 2 min, 10 min, 30 min, 1 h, 2 h. */
export const DEFAULT_BACKOFF_MS = [10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];
/** Attempts before a mail is 'failed': with the backoff above, about four hours of trying. */
export const DEFAULT_MAX_ATTEMPTS = 8;

export interface OutboxSenderOptions {
  db: Db;
  mailer: Mailer;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /**
   * Where kicks run (buildApp passes the app's BackgroundTasks, so that close and the tests'
   * idle() wait for the mails); none = a tracker of the sender's own (`idle()`).
   */
  tasks?: BackgroundTasks;
  /** How often the sweep runs once started (ms). */
  sweepIntervalMs?: number;
  /** How long a claim holds a mail (ms). */
  claimMs?: number;
  /** Wait after the n-th failed attempt: backoffMs[n - 1] (the last entry repeats). */
  backoffMs?: number[];
  maxAttempts?: number;
  /** Sent rows older than this are deleted by the sweep (ms). */
  keepSentMs?: number;
  /** Mails claimed and sent at once (one batch). */
  batchSize?: number;
  /** The clock (tests). */
  now?: () => Date;
}

export interface SweepResult {
  sent: number;
  /** Failed attempts that will be retried. */
  retried: number;
  /** Mails given up after their last attempt. */
  failed: number;
  /** Old sent rows deleted. */
  purged: number;
}

export interface OutboxSender {
  /** Sends the mails written and never tried yet, soon; call after the writing transaction commits. */
  kick(): void;
  /** One pass over every due pending mail (retries, abandoned claims), then the purge of old sent rows. */
  sweep(): Promise<SweepResult>;
  /** Starts the periodic sweep (a first one at once). The leader's work. */
  start(): void;
  /** Stops the periodic sweep and waits for a pass in progress. */
  stop(): Promise<void>;
  /** Waits for kicks in progress (those the sender tracks itself; buildApp's are the app's tasks). */
  idle(): Promise<void>;
}

const PURGE_EVERY_MS = 60_000;

export function createOutboxSender(options: OutboxSenderOptions): OutboxSender {
  const { db, mailer, logger } = options;
  const tasks = options.tasks ?? new BackgroundTasks(logger as FastifyBaseLogger);
  const sweepIntervalMs = options.sweepIntervalMs ?? 5000;
  const claimMs = options.claimMs ?? 60_000;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const keepSentMs = options.keepSentMs ?? 7 * 24 * 3600_000;
  const batchSize = Math.max(1, options.batchSize ?? 16);
  const now = options.now ?? (() => new Date());

  /** Pending mails due at `at` and claimed by nobody (or by a claim that expired); only never-tried ones when `fresh`. */
  const due = (at: string, fresh: boolean) => (eb: ExpressionBuilder<Database, 'mail_outbox'>) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb('next_attempt_at', '<=', at),
      eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]),
      ...(fresh ? [eb('attempts', '=', 0)] : []),
    ]);

  /**
   * Claims up to `batchSize` due mails (only never-tried ones when `fresh`; newest first when
   * `fresh`, oldest first otherwise) and answers them. Each row is claimed by one sender only:
   * the UPDATE re-checks that the row is still due and unclaimed, which PostgreSQL evaluates on
   * the latest committed version of the row (a row another sender claimed meanwhile no longer
   * matches) and SQLite runs one writer at a time. On PostgreSQL the rows are first picked
   * FOR UPDATE SKIP LOCKED, so that concurrent senders take different rows instead of waiting.
   */
  const claimBatch = async (fresh: boolean) => {
    const at = now();
    const atText = timestamp(at);
    const lockedUntil = timestamp(new Date(at.getTime() + claimMs));
    const order = fresh ? 'desc' : 'asc';
    const pick = (trx: Db) => trx.selectFrom('mail_outbox').select('id').where(due(atText, fresh)).orderBy('id', order).limit(batchSize);
    const claim = (trx: Db, ids: number[] | ReturnType<typeof pick>) =>
      trx
        .updateTable('mail_outbox')
        .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', ids)
        .where(due(atText, fresh))
        .returning(['id', 'recipient', 'subject', 'text', 'html', 'attempts', 'locked_until'])
        .execute();
    // SQLite: one statement, and one writer at a time.
    if (dialectOf(db) === 'sqlite') return claim(db, pick(db));
    return db.transaction().execute(async (trx) => {
      const picked = await pick(trx).forUpdate().skipLocked().execute();
      return picked.length === 0 ? [] : claim(trx, picked.map((row) => row.id));
    });
  };

  type Claimed = Awaited<ReturnType<typeof claimBatch>>[number];
  type Outcome = 'sent' | 'retried' | 'failed';

  /** Records a failed attempt: retried after the backoff, or 'failed' after the last one. */
  const recordFailure = async (row: Claimed, error: unknown): Promise<Outcome> => {
    const mail = { id: row.id, to: row.recipient, subject: row.subject, attempt: row.attempts };
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000) || 'unknown error';
    const last = row.attempts >= maxAttempts;
    const wait = backoffMs[Math.min(row.attempts, backoffMs.length) - 1] ?? 0;
    // Only while the claim is still ours: past it, another sender may hold the mail.
    await db
      .updateTable('mail_outbox')
      .set(
        last
          ? { status: 'failed', locked_until: null, last_error: message }
          : { next_attempt_at: timestamp(new Date(now().getTime() + wait)), locked_until: null, last_error: message },
      )
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('locked_until', '=', row.locked_until)
      .execute();
    if (last) {
      logger.error({ mail, err: error }, `Mail given up after ${row.attempts} attempts`);
      return 'failed';
    }
    logger.warn({ mail, err: error }, `Sending a mail failed; next attempt in ${Math.round(wait / 1000)} s`);
    return 'retried';
  };

  /** Sends the due pending mails (only never-tried ones when `fresh`), a batch at a time. */
  const sendDue = async (fresh: boolean): Promise<SweepResult> => {
    const result: SweepResult = { sent: 0, retried: 0, failed: 0, purged: 0 };
    for (;;) {
      const rows = await claimBatch(fresh);
      if (rows.length === 0) return result;
      const sent: number[] = [];
      await Promise.all(
        rows.map(async (row) => {
          try {
            await mailer.send({ to: row.recipient, subject: row.subject, text: row.text, html: row.html });
            sent.push(row.id);
          } catch (error) {
            // A failure to record the failure (the database) leaves the claim to expire: the
            // sweep retries the mail then.
            const outcome = await recordFailure(row, error).catch((dbError: unknown) => {
              logger.warn({ err: dbError, mail: { id: row.id } }, 'Recording a failed mail attempt failed');
              return 'retried' as const;
            });
            result[outcome]++;
          }
        }),
      );
      if (sent.length > 0) {
        // Recorded whatever became of the claims, so that nobody sends these again.
        await db
          .updateTable('mail_outbox')
          .set({ status: 'sent', sent_at: timestamp(now()), locked_until: null, last_error: null })
          .where('id', 'in', sent)
          .execute();
        result.sent += sent.length;
      }
    }
  };

  let lastPurge = 0;
  const purge = async (): Promise<number> => {
    const at = now().getTime();
    if (at - lastPurge < PURGE_EVERY_MS) return 0;
    lastPurge = at;
    const deleted = await db
      .deleteFrom('mail_outbox')
      .where('status', '=', 'sent')
      .where('sent_at', '<', timestamp(new Date(at - keepSentMs)))
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  };

  const sweep = async (): Promise<SweepResult> => {
    const result = await sendDue(false);
    result.purged = await purge();
    return result;
  };

  let kicking = false;
  let kickAgain = false;
  const kick = () => {
    if (kicking) {
      // A pass is under way: one more after it, for mails committed since it looked.
      kickAgain = true;
      return;
    }
    kicking = true;
    tasks.run('Sending mail from the outbox', async () => {
      try {
        do {
          kickAgain = false;
          await sendDue(true);
        } while (kickAgain);
      } finally {
        kicking = false;
      }
    });
  };

  let timer: NodeJS.Timeout | undefined;
  let running = false;
  // Each start() begins a chain of its own; a chain from before a stop() does not go on.
  let generation = 0;
  let sweeping: Promise<void> = Promise.resolve();
  const tick = (chain: number) => {
    sweeping = sweep()
      .then(
        (result) => {
          if (result.sent + result.retried + result.failed > 0) {
            logger.info(`Mail outbox sweep: ${result.sent} sent, ${result.retried} to retry, ${result.failed} given up`);
          }
          if (result.purged > 0) logger.info(`Mail outbox: ${result.purged} sent mails older than ${Math.round(keepSentMs / 3600_000)} h deleted`);
        },
        (error: unknown) => logger.warn({ err: error }, 'Mail outbox sweep failed; trying again later'),
      )
      .finally(() => {
        if (running && chain === generation) timer = setTimeout(() => tick(chain), sweepIntervalMs).unref();
      });
  };

  return {
    kick,
    sweep,
    start() {
      if (running) return;
      running = true;
      const chain = ++generation;
      // After a pass of an earlier chain, never two passes at once.
      void sweeping.then(() => {
        if (running && chain === generation) tick(chain);
      });
    },
    async stop() {
      running = false;
      generation++;
      clearTimeout(timer);
      await sweeping;
    },
    idle: () => tasks.idle(),
  };
}
