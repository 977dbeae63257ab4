import path from 'node:path';
import { z } from 'zod';
import { WEBHOOK_SECRET_GRACE_HOURS } from '@outlay/contracts';
import { DEFAULT_POOL_SETTINGS, type PoolSettings } from '@outlay/db';

/**
 * Where the Prometheus metrics are served. Neither set: nowhere (the public /metrics says how
 * to turn them on). A token alone: /metrics on the public port behind `Authorization: Bearer`.
 * A port: /metrics only on that port, on the loopback interface unless METRICS_HOST says
 * otherwise (and behind the token too when one is set).
 */
export interface MetricsConfig {
  token: string | undefined;
  port: number | undefined;
  host: string;
}

const unsetWhenBlank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const metricsEnv = z.object({
  METRICS_TOKEN: z.preprocess(
    unsetWhenBlank,
    z
      .string()
      .trim()
      .min(16, 'METRICS_TOKEN must be at least 16 characters long (e.g. the output of `openssl rand -hex 32`)')
      .optional(),
  ),
  METRICS_PORT: z.preprocess(
    unsetWhenBlank,
    z.coerce
      .number({ error: 'METRICS_PORT must be a port number' })
      .int('METRICS_PORT must be a whole number')
      .min(1, 'METRICS_PORT must be between 1 and 65535')
      .max(65535, 'METRICS_PORT must be between 1 and 65535')
      .optional(),
  ),
  METRICS_HOST: z.preprocess(unsetWhenBlank, z.string().trim().default('127.0.0.1')),
});

export function metricsConfig(env: NodeJS.ProcessEnv, publicPort: number): MetricsConfig {
  const parsed = metricsEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  const { METRICS_TOKEN: token, METRICS_PORT: port, METRICS_HOST: host } = parsed.data;
  if (port !== undefined && port === publicPort)
    throw new Error(`METRICS_PORT must differ from PORT (${publicPort}): the metrics port is the internal one`);
  return { token, port, host };
}

/** An OpenAI-compatible chat endpoint that may reword the Copilot's answers; never required. */
export interface LlmConfig {
  /** e.g. http://127.0.0.1:11434/v1 (`/chat/completions` is added). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** LLM_BASE_URL turns the wording model on; LLM_MODEL must say which model; LLM_API_KEY when the endpoint wants one. */
export function llmConfig(env: NodeJS.ProcessEnv): LlmConfig | undefined {
  const baseUrl = env.LLM_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`LLM_BASE_URL must be an http(s) URL, not "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`LLM_BASE_URL must be an http(s) URL, not "${baseUrl}"`);
  const model = env.LLM_MODEL?.trim();
  if (!model) throw new Error('LLM_MODEL must name the model when LLM_BASE_URL is set');
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: env.LLM_API_KEY?.trim() || undefined, model };
}

/**
 * PUBLIC_URL: the address people and their calendar apps reach Outlay at (e.g.
 * `https://outlay.example.com`). Every absolute link the server writes starts with it, never with
 * the request's Host header, which the client chooses. An http(s) URL without query or fragment;
 * a trailing slash is dropped. Unset: `http://localhost:PORT` (and a warning at start).
 */
const publicUrlEnv = z.preprocess(
  unsetWhenBlank,
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'http:' || url.protocol === 'https:') &&
          url.search === '' &&
          url.hash === '' &&
          url.username === '' &&
          url.password === ''
        );
      } catch {
        return false;
      }
    }, 'PUBLIC_URL must be an http(s) URL such as https://outlay.example.com (no query, fragment or credentials)')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
);

export function publicUrlFromEnv(env: NodeJS.ProcessEnv, port: number): { publicUrl: string; publicUrlSet: boolean } {
  const parsed = publicUrlEnv.safeParse(env.PUBLIC_URL);
  if (!parsed.success)
    throw new Error(`${parsed.error.issues.map((issue) => issue.message).join('; ')}, not "${env.PUBLIC_URL}"`);
  return parsed.data === undefined
    ? { publicUrl: `http://localhost:${port}`, publicUrlSet: false }
    : { publicUrl: parsed.data, publicUrlSet: true };
}

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL URL; when absent the embedded PGlite in dataDir is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Backup files (BACKUP_DIR; by default `backups` in the data directory). */
  backupDir: string;
  /** Signing secret; when absent one is generated once and kept in the database. */
  jwtSecret: string | undefined;
  /** Whose X-Forwarded-For to believe: nobody (false), any proxy (true), or these addresses. */
  trustProxy: boolean | string;
  logLevel: string;
  /** Initial authorized e-mail domains for a production database (comma-separated). */
  authorizedDomains: string[];
  /** Seed the demo world into an empty embedded database. */
  seedDemo: boolean;
  webDist: string | undefined;
  /** SMTP server for e-mail notifications (smtp://host:port); without it no e-mail is queued. */
  smtpUrl: string | undefined;
  /** Sender of e-mail notifications. */
  mailFrom: string;
  /** PostgreSQL pool size and timeouts (milliseconds; 0 turns a timeout off). */
  database: PoolSettings;
  metrics: MetricsConfig;
  /** The optional wording model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). */
  llm: LlmConfig | undefined;
  /** Hours a webhook's old secret still signs deliveries after a rotation (WEBHOOK_SECRET_GRACE_HOURS; 0: none). */
  webhookSecretGraceHours: number;
  /** Where Outlay is reached (PUBLIC_URL, no trailing slash); every absolute link starts with it. */
  publicUrl: string;
  /** False when PUBLIC_URL is unset and publicUrl is the localhost default. */
  publicUrlSet: boolean;
}

/** A whole number from the environment, or the default; anything else stops the start with a clear message. */
function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}"`);
  return Number(raw);
}

/** One trusted proxy: an address, a CIDR range, or one of the named ranges Fastify (proxy-addr) knows. */
const proxyAddress = z.union([
  z.ipv4(),
  z.ipv6(),
  z.cidrv4(),
  z.cidrv6(),
  z.enum(['loopback', 'linklocal', 'uniquelocal']),
]);

/**
 * TRUST_PROXY: unset or `false` believes nobody's X-Forwarded-For (the socket's address is the
 * client's); `true` believes any proxy; a comma-separated list believes only those proxies, so a
 * client cannot pick the address it is throttled and audited under by sending the header itself.
 * Anything else stops the start: a typo must not silently turn the forwarded address off.
 */
export function trustProxyFromEnv(raw: string | undefined): boolean | string {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !proxyAddress.safeParse(entry).success);
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses (IP addresses, CIDR ranges, loopback, linklocal, uniquelocal), not "${bad.join('", "')}"`,
    );
  }
  return entries.join(',');
}

/**
 * BACKUP_DIR: an absolute path, or one relative to the working directory; unset keeps backups in
 * `backups` under DATA_DIR. A path that is whitespace or holds a NUL stops the start.
 */
export function backupDirFromEnv(env: NodeJS.ProcessEnv): string {
  const raw = env.BACKUP_DIR;
  if (raw === undefined || raw === '') return path.resolve(env.DATA_DIR ?? 'data', 'backups');
  if (raw.trim() === '' || raw.includes('\0')) throw new Error(`BACKUP_DIR must be a folder path, not "${raw}"`);
  return path.resolve(raw.trim());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const port = Number.parseInt(env.PORT ?? '3000', 10);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    backupDir: backupDirFromEnv(env),
    jwtSecret: env.JWT_SECRET?.trim() || undefined,
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? 'info',
    authorizedDomains: (env.AUTHORIZED_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    seedDemo: !databaseUrl && env.SEED_DEMO !== 'false',
    webDist: env.WEB_DIST,
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailFrom: env.MAIL_FROM?.trim() || 'Outlay <no-reply@outlay.local>',
    database: {
      size: intFromEnv(env, 'DATABASE_POOL_SIZE', DEFAULT_POOL_SETTINGS.size, 1),
      connectionTimeoutMs: intFromEnv(env, 'DATABASE_POOL_TIMEOUT_MS', DEFAULT_POOL_SETTINGS.connectionTimeoutMs, 0),
      statementTimeoutMs: intFromEnv(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_POOL_SETTINGS.statementTimeoutMs, 0),
      lockTimeoutMs: intFromEnv(env, 'DATABASE_LOCK_TIMEOUT_MS', DEFAULT_POOL_SETTINGS.lockTimeoutMs, 0),
      idleInTransactionTimeoutMs: intFromEnv(
        env,
        'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        DEFAULT_POOL_SETTINGS.idleInTransactionTimeoutMs,
        0,
      ),
    },
    metrics: metricsConfig(env, port),
    llm: llmConfig(env),
    webhookSecretGraceHours: intFromEnv(env, 'WEBHOOK_SECRET_GRACE_HOURS', WEBHOOK_SECRET_GRACE_HOURS, 0),
    ...publicUrlFromEnv(env, port),
  };
}
