import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import dotenv from 'dotenv';
import { z } from 'zod';
import { type OidcProviderConfig, oidcProvidersFrom } from './oidcProviders.js';
import { parseTrustProxy, type TrustProxy } from './trustProxy.js';

export const APP_NAME = 'Testbed Console';

export type ClusterMode = 'kubernetes' | 'sandbox' | 'none';

/** At most `max` hits per key within `windowSeconds`. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface RateLimits {
  /** Failed login attempts, keyed by email + client address. */
  login: RateLimit;
  /** Failed login attempts from one client address, whatever the accounts (the ceiling across accounts). */
  loginAddress: RateLimit;
  /** Registrations, keyed by client address. */
  register: RateLimit;
  /** Password reset link requests, keyed by email + client address. */
  passwordLink: RateLimit;
  /** Verification mail resends, keyed by user. */
  verificationResend: RateLimit;
  /** Wrong node claim codes typed into POST /api/nodes, keyed by user. */
  nodeClaim: RateLimit;
  /** Machine-first node registrations (POST /agent/register), keyed by client address. */
  agentRegister: RateLimit;
  /** Invitations mailed (sent and resent) for one team by its owners and managers, together. */
  invitationTeam: RateLimit;
  /** One owner's or manager's share of their team's invitations (invitations/budget.ts). */
  invitationTeamInviter: RateLimit;
  /** Invitations mailed (sent and resent) by one person, whatever the teams. */
  invitationInviter: RateLimit;
  /** Invitations mailed by one platform admin a day, whatever the teams (admins are outside team budgets). */
  invitationAdmin: RateLimit;
  /** Institutional sign-ins started (GET /auth/oidc/{provider}), keyed by client address. */
  oidcStart: RateLimit;
}

/**
 * What one owner or manager may mail for one team a day: half the team's 300, so that one person
 * cannot spend the whole team's budget and leave the others none. A teacher invites a class of
 * up to 150 in one go; a spammer with a team still reaches few people a day.
 */
export const INVITATIONS_PER_INVITER_PER_TEAM = 150;
/** What one platform admin may mail a day, whatever the teams (they do not spend team budgets). */
export const INVITATIONS_PER_ADMIN = 400;

/** The limits of docs/api-contract.md ("Rate limits"). */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  login: { max: 5, windowSeconds: 60 },
  loginAddress: { max: 30, windowSeconds: 900 },
  register: { max: 10, windowSeconds: 3600 },
  passwordLink: { max: 5, windowSeconds: 3600 },
  verificationResend: { max: 6, windowSeconds: 3600 },
  nodeClaim: { max: 10, windowSeconds: 600 },
  agentRegister: { max: 60, windowSeconds: 3600 },
  invitationTeam: { max: 2 * INVITATIONS_PER_INVITER_PER_TEAM, windowSeconds: 86400 },
  invitationTeamInviter: { max: INVITATIONS_PER_INVITER_PER_TEAM, windowSeconds: 86400 },
  // A class invited in one go fits in an hour: the hourly cap is the day's share for one team.
  invitationInviter: { max: INVITATIONS_PER_INVITER_PER_TEAM, windowSeconds: 3600 },
  invitationAdmin: { max: INVITATIONS_PER_ADMIN, windowSeconds: 86400 },
  oidcStart: { max: 30, windowSeconds: 600 },
};

/**
 * APP_URL's host when it is not set: the address the server listens on (HOST), so that the
 * address it prints, the one mailed links carry and the one a browser can reach are one and the
 * same; `localhost` when HOST is every interface (0.0.0.0, ::).
 */
export function defaultAppHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export interface Config {
  port: number;
  host: string;
  /** Public URL of the console, without a trailing slash; mailed links start with it. */
  appUrl: string;
  databaseUrl: string;
  /** Absolute path of the directory for local state (SQLite file, generated app key). */
  storageDir: string;
  /** smtp:// or smtps:// URL; null = mails are written to the log. */
  mailUrl: string | null;
  mailFrom: string;
  /** Secret for signed links (HMAC key). */
  appKey: string;
  cluster: ClusterMode;
  kubeconfig: string | null;
  /**
   * The API server address people and machines use (kubeconfigs, GET /api/cluster, kubeadm
   * join); null = the one the console itself connects to. Behind a load balancer or NAT, or
   * with in-cluster config (`https://kubernetes.default.svc`), that one is not reachable from
   * outside.
   */
  clusterServerUrl: string | null;
  /** Loopback port of the in-process sandbox API server (CLUSTER=sandbox); 0 = any free port. */
  sandboxClusterPort: number;
  /**
   * port: where this process listens for websockets (REVERB_PORT). host, publicPort and
   * scheme: where browsers connect (GET /api/settings); behind an Ingress that terminates TLS
   * on 443 they differ from the listening port.
   */
  realtime: { port: number; host: string; key: string; publicPort: number; scheme: 'http' | 'https' };
  /** Limits of the realtime server (docs/api-contract.md, "Realtime"). */
  realtimeLimits: RealtimeConfigLimits;
  /** How often the leader's lifecycle pass runs (expiry, warnings, retention, memberships that end). */
  lifecycleIntervalSeconds: number;
  /** How often the leader's usage accounting pass runs (docs/usage.md). */
  usageSampleSeconds: number;
  /** The lifecycle settings until a platform admin changes them (lifecycle/settings.ts). */
  lifecycleDefaults: LifecycleSettings;
  /** null = rate limiting is off (RATE_LIMITS=off, for load benchmarks). */
  rateLimits: RateLimits | null;
  /**
   * CHECK_ANSWERS=on: every answer is also checked against its zod schema and must equal what the
   * compiled serialiser wrote (http/answerSerializer.ts). The tests run with it; a server need not.
   */
  checkAnswers: boolean;
  /**
   * Which peers' X-Forwarded-For is believed (TRUST_PROXY): false = none, the client address
   * is the socket's; true = every peer; else the proxies' addresses and CIDR ranges.
   */
  trustProxy: TrustProxy;
  /** Absolute path of the built console (index.html and assets). */
  staticDir: string;
  /** NODE_ENV=production: APP_KEY, APP_URL and MAIL_URL are required, mail bodies never logged. */
  production: boolean;
  /** pino level of the server log (LOG_LEVEL). */
  logLevel: LogLevel;
  /**
   * LOG_FORMAT: `pretty` (one readable line per entry, for a person at a terminal) or `json`
   * (for log collectors). Default: pretty when standard output is a terminal, outside production.
   */
  logFormat: 'pretty' | 'json';
  /**
   * LOG_REQUESTS: `all` writes one line per request; `errors` only answers of 500 and above
   * and requests slower than slowRequestMs (LOG_SLOW_REQUEST_MS, 1000). Default: all with the
   * pretty format, errors otherwise (a line per request costs a busy server a fifth of its speed).
   */
  logRequests: 'all' | 'errors';
  slowRequestMs: number;
  /** Most connections one process opens to PostgreSQL (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /**
   * GET /metrics asks for `Authorization: Bearer <this>`; null (METRICS_TOKEN unset): open
   * outside production, 404 in production.
   */
  metricsToken: string | null;
  /** METRICS_PORT: /metrics is served on this port (of HOST) only; null = on PORT. */
  metricsPort: number | null;
  /** OpenID providers for institutional sign-in (OIDC_PROVIDERS or OIDC_ISSUER…); none = off. */
  oidcProviders: OidcProviderConfig[];
  /**
   * An external avatar service (AVATAR_URL: `{hash}` the SHA-256 of the email, `{size}` in pixels),
   * or null: initials drawn in the browser. Off by default: each avatar would tell the service
   * who uses the testbed, and it fails offline.
   */
  avatarUrl: string | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What production refuses to guess: without these a replica would sign links with a key of its
 * own, mail links to localhost, or write reset links into its log.
 */
export const PRODUCTION_REQUIRED = {
  APP_KEY: 'the secret that signs links and realtime channel auth; the same on every replica (e.g. `openssl rand -hex 32`)',
  APP_URL: 'the public https:// address of the console, used in mailed links',
  MAIL_URL: 'the SMTP server mails go through (smtp://host:587 or smtps://user:pass@host:465)',
} as const;

/**
 * How long allocations last and when people are warned; platform admins change them in the
 * console (GET/PATCH /api/admin/settings), the environment seeds them.
 */
export interface LifecycleSettings {
  /** A workspace's lifetime from its approval (never past its team's review date). */
  workspace_lifetime_days: number;
  /** A team's review date from its approval. */
  team_review_days: number;
  /** The first warning before a workspace or team ends. */
  warning_days: number;
  /** The last warning before it ends. */
  last_warning_hours: number;
  /** How long an expired workspace is kept (suspended) before it is deleted; null: never deleted. */
  retention_days: number | null;
  /** The last mail before an expired workspace is deleted. */
  retention_notice_days: number;
  /** The warning before a team membership with an end date ends. */
  membership_warning_days: number;
  /** How long an acceptance of the acceptable use policy holds. */
  policy_validity_days: number;
  /** Contributor credit: what a team's Ready nodes add to its CPU and memory caps, as a share of their capacity (0: none). */
  credit_cpu_factor: number;
  credit_memory_factor: number;
}

/** EdgeNet's factors for contributor credit: a Ready node adds 1.5 × its CPU and 1.3 × its memory. */
export const CREDIT_DEFAULTS = { credit_cpu_factor: 1.5, credit_memory_factor: 1.3 } as const;

export interface RealtimeConfigLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  maxSubscriptionsPerConnection: number;
  /** How often every open subscription's rights are checked again (token expiry, missed changes). */
  recheckSeconds: number;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const port = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be between 0 and 65535`)
    .max(65535, `${name} must be between 0 and 65535`);

const positive = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`).min(1, `${name} must be at least 1`);

const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL` });

// Every variable arrives as a string (or not at all); defaults that depend on other
// variables (APP_URL on PORT, DATABASE_URL on STORAGE_DIR) are filled in afterwards.
const environmentSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: port('PORT').default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: httpUrl('APP_URL').optional(),
  STORAGE_DIR: z.string().min(1).default('storage'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'DATABASE_URL must be sqlite:<file> or postgres://user:pass@host/db')
    .optional(),
  MAIL_URL: z.string().regex(/^smtps?:\/\/.+/, 'MAIL_URL must be smtp://host:port or smtps://user:pass@host:port').optional(),
  MAIL_FROM: z.string().regex(/\S+@\S+/, 'MAIL_FROM must contain an email address').default('console@localhost'),
  APP_KEY: z.string().min(16, 'APP_KEY must be at least 16 characters long').optional(),
  CLUSTER: z.enum(['kubernetes', 'sandbox', 'none'], { error: 'CLUSTER must be kubernetes, sandbox or none' }).optional(),
  KUBECONFIG: z.string().optional(),
  CLUSTER_SERVER_URL: z.url({ protocol: /^https$/, error: 'CLUSTER_SERVER_URL must be an https:// URL' }).optional(),
  SANDBOX_CLUSTER_PORT: port('SANDBOX_CLUSTER_PORT').default(0),
  REVERB_PORT: port('REVERB_PORT').default(8080),
  // Allocations over time (docs/lifecycle.md): the defaults platform admins may change in the
  // console's settings page; these only seed it.
  LIFECYCLE_INTERVAL_SECONDS: positive('LIFECYCLE_INTERVAL_SECONDS').default(60),
  // Usage accounting (docs/usage.md): how often the leader samples the running pods.
  USAGE_SAMPLE_SECONDS: positive('USAGE_SAMPLE_SECONDS').default(60),
  WORKSPACE_LIFETIME_DAYS: positive('WORKSPACE_LIFETIME_DAYS').default(180),
  TEAM_REVIEW_DAYS: positive('TEAM_REVIEW_DAYS').default(365),
  EXPIRY_WARNING_DAYS: positive('EXPIRY_WARNING_DAYS').default(30),
  EXPIRY_LAST_WARNING_HOURS: positive('EXPIRY_LAST_WARNING_HOURS').default(72),
  RETENTION_DAYS: z
    .union([z.literal('never'), positive('RETENTION_DAYS')], { error: 'RETENTION_DAYS must be a whole number of days or never' })
    .default(30),
  RETENTION_NOTICE_DAYS: positive('RETENTION_NOTICE_DAYS').default(7),
  MEMBERSHIP_WARNING_DAYS: positive('MEMBERSHIP_WARNING_DAYS').default(7),
  POLICY_VALIDITY_DAYS: positive('POLICY_VALIDITY_DAYS').default(365),
  REVERB_HOST: z.string().min(1).optional(),
  REVERB_PUBLIC_PORT: port('REVERB_PUBLIC_PORT').optional(),
  REVERB_SCHEME: z.enum(['http', 'https'], { error: 'REVERB_SCHEME must be http or https' }).optional(),
  AVATAR_URL: z
    .string()
    .regex(/^https:\/\/[^/\s]+\/\S*\{hash\}\S*$/, 'AVATAR_URL must be an https:// address with {hash} in it (and {size} if wanted)')
    .optional(),
  REVERB_APP_KEY: z.string().min(1).default('testbed'),
  REALTIME_MAX_CONNECTIONS: positive('REALTIME_MAX_CONNECTIONS').default(10_000),
  REALTIME_MAX_CONNECTIONS_PER_ADDRESS: positive('REALTIME_MAX_CONNECTIONS_PER_ADDRESS').default(100),
  REALTIME_MAX_SUBSCRIPTIONS: positive('REALTIME_MAX_SUBSCRIPTIONS').default(100),
  REALTIME_RECHECK_SECONDS: positive('REALTIME_RECHECK_SECONDS').default(60),
  RATE_LIMITS: z.enum(['on', 'off'], { error: 'RATE_LIMITS must be on or off' }).default('on'),
  CHECK_ANSWERS: z.enum(['on', 'off'], { error: 'CHECK_ANSWERS must be on or off' }).default('off'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((text, context) => {
      const parsed = parseTrustProxy(text);
      if ('problem' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.problem });
        return z.NEVER;
      }
      return parsed.value;
    }),
  STATIC_DIR: z.string().min(1).default('dist'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json'], { error: 'LOG_FORMAT must be pretty or json' }).optional(),
  LOG_REQUESTS: z.enum(['all', 'errors'], { error: 'LOG_REQUESTS must be all or errors' }).optional(),
  LOG_SLOW_REQUEST_MS: positive('LOG_SLOW_REQUEST_MS').default(1000),
  DATABASE_POOL_SIZE: positive('DATABASE_POOL_SIZE').default(10),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters long').optional(),
  METRICS_PORT: port('METRICS_PORT').optional(),
  OIDC_PROVIDERS: z.string().optional(),
  OIDC_ISSUER: z.string().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().optional(),
  OIDC_ID: z.string().optional(),
});

export interface LoadConfigOptions {
  /** A dotenv file whose values apply where the environment has none; null reads no file. */
  envFile?: string | null;
}

/**
 * The server configuration from the environment, with the defaults listed in docs/configuration.md.
 * Throws a ConfigError that names every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const envFile = options.envFile === undefined ? '.env' : options.envFile;
  const fromFile = envFile && existsSync(envFile) ? dotenv.parse(readFileSync(envFile)) : {};
  // An empty variable (`MAIL_URL=` in a .env template) means "not set".
  const merged = Object.fromEntries(
    Object.entries({ ...fromFile, ...env }).filter(([, value]) => value !== undefined && value !== ''),
  );

  const parsed = environmentSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '');
        return `${issue.message} (${name}=${JSON.stringify(merged[name] ?? '')})`;
      }),
    );
  }
  const vars = parsed.data;
  const production = vars.NODE_ENV === 'production';
  if (production) {
    const missing = Object.entries(PRODUCTION_REQUIRED).filter(([name]) => merged[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(missing.map(([name, why]) => `${name} is required when NODE_ENV=production: ${why}`));
    }
  }

  const oidc = oidcProvidersFrom(vars);
  if ('problems' in oidc) throw new ConfigError(oidc.problems);

  const storageDir = resolve(vars.STORAGE_DIR);
  const appUrl = (vars.APP_URL ?? `http://${defaultAppHost(vars.HOST)}:${vars.PORT}`).replace(/\/+$/, '');
  const logFormat = vars.LOG_FORMAT ?? (process.stdout.isTTY && !production ? 'pretty' : 'json');
  return {
    port: vars.PORT,
    host: vars.HOST,
    appUrl,
    databaseUrl: vars.DATABASE_URL ?? `sqlite:${join(storageDir, 'console.sqlite')}`,
    storageDir,
    mailUrl: vars.MAIL_URL ?? null,
    mailFrom: vars.MAIL_FROM,
    appKey: vars.APP_KEY ?? storedAppKey(storageDir),
    cluster: vars.CLUSTER ?? (vars.NODE_ENV === 'production' ? 'none' : 'sandbox'),
    kubeconfig: vars.KUBECONFIG ?? null,
    clusterServerUrl: vars.CLUSTER_SERVER_URL?.replace(/\/+$/, '') ?? null,
    sandboxClusterPort: vars.SANDBOX_CLUSTER_PORT,
    realtime: {
      port: vars.REVERB_PORT,
      host: vars.REVERB_HOST ?? new URL(appUrl).hostname,
      key: vars.REVERB_APP_KEY,
      publicPort: vars.REVERB_PUBLIC_PORT ?? vars.REVERB_PORT,
      scheme: vars.REVERB_SCHEME ?? (appUrl.startsWith('https:') ? 'https' : 'http'),
    },
    realtimeLimits: {
      maxConnections: vars.REALTIME_MAX_CONNECTIONS,
      maxConnectionsPerAddress: vars.REALTIME_MAX_CONNECTIONS_PER_ADDRESS,
      maxSubscriptionsPerConnection: vars.REALTIME_MAX_SUBSCRIPTIONS,
      recheckSeconds: vars.REALTIME_RECHECK_SECONDS,
    },
    rateLimits: vars.RATE_LIMITS === 'on' ? DEFAULT_RATE_LIMITS : null,
    checkAnswers: vars.CHECK_ANSWERS === 'on',
    trustProxy: vars.TRUST_PROXY,
    staticDir: resolve(vars.STATIC_DIR),
    production,
    logLevel: vars.LOG_LEVEL,
    logFormat,
    logRequests: vars.LOG_REQUESTS ?? (logFormat === 'pretty' ? 'all' : 'errors'),
    slowRequestMs: vars.LOG_SLOW_REQUEST_MS,
    databasePoolSize: vars.DATABASE_POOL_SIZE,
    metricsToken: vars.METRICS_TOKEN ?? null,
    metricsPort: vars.METRICS_PORT ?? null,
    oidcProviders: oidc.providers,
    avatarUrl: vars.AVATAR_URL ?? null,
    lifecycleIntervalSeconds: vars.LIFECYCLE_INTERVAL_SECONDS,
    usageSampleSeconds: vars.USAGE_SAMPLE_SECONDS,
    lifecycleDefaults: {
      workspace_lifetime_days: vars.WORKSPACE_LIFETIME_DAYS,
      team_review_days: vars.TEAM_REVIEW_DAYS,
      warning_days: vars.EXPIRY_WARNING_DAYS,
      last_warning_hours: vars.EXPIRY_LAST_WARNING_HOURS,
      retention_days: vars.RETENTION_DAYS === 'never' ? null : vars.RETENTION_DAYS,
      retention_notice_days: vars.RETENTION_NOTICE_DAYS,
      membership_warning_days: vars.MEMBERSHIP_WARNING_DAYS,
      policy_validity_days: vars.POLICY_VALIDITY_DAYS,
      ...CREDIT_DEFAULTS,
    },
  };
}

/**
 * The app key kept in STORAGE_DIR/app-key, generated on first use, so that links mailed
 * before a restart stay valid without anyone having to set APP_KEY.
 */
function storedAppKey(storageDir: string): string {
  const keyFile = join(storageDir, 'app-key');
  if (existsSync(keyFile)) {
    const key = readFileSync(keyFile, 'utf8').trim();
    if (key.length >= 16) return key;
  }
  mkdirSync(storageDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  return key;
}
