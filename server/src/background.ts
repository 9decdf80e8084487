import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the answer has gone out, such as sending mail: a slow or failing mail
 * server never delays or fails a request, and /password/link answers in the same time whether
 * or not the address has an account. Failures are logged. `idle()` waits for everything
 * started so far; the app calls it on close, tests call it before looking at the mailbox.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: FastifyBaseLogger) {}

  run(description: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error }, `${description} failed`),
      )
      .finally(() => this.pending.delete(promise));
    this.pending.add(promise);
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
