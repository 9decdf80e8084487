import pino from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config/config.js';

/**
 * pino-pretty's options: one line per entry. The fields a request line or a mail line carries
 * are already in its message (http/requestLog.ts, mail/mailer.ts), so they are not printed again
 * below it, one per line; anything else (an error's stack, say) still is.
 */
export const PRETTY_OPTIONS = {
  sync: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,reqId,method,path,status,ms,mail',
} as const;

/**
 * The server's logger. `json`: pino writing asynchronously to standard output (a request never
 * waits for the terminal or the log collector); flushed before the process exits. `pretty`: one
 * readable, coloured line per entry for a person at a terminal, written in this process (no
 * worker thread).
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): pino.Logger {
  if (config.logFormat === 'pretty') {
    return pino({ level: config.logLevel }, pretty({ ...PRETTY_OPTIONS, colorize: Boolean(process.stdout.isTTY) }));
  }
  const logger = pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: false }));
  // An exit that does not go through the stop sequence (a crash, process.exit) still writes
  // what is buffered.
  process.once('exit', () => logger.flush());
  return logger;
}
