import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Grants, Permission, Role, Scope } from '@outlay/contracts';
import type { Db, PoolStats } from '@outlay/db';
import type { EventBus } from './events.ts';
import type { Mailer } from './mailer.ts';
import type { Metrics } from './metrics.ts';
import type { FileStorage } from './storage.ts';
import type { TokenSigner } from './tokens.ts';

/** What the process shares across requests: handles and keys only, never per-user state. */
export interface AppDeps {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  signer: TokenSigner;
  /** Key that seals TOTP secrets at rest. */
  totpKey: Buffer;
  /** Key that seals vendor and employee bank details at rest. */
  bankKey: Buffer;
  clock: () => Date;
  /** Attachment bytes (a folder under the data directory unless configured otherwise). */
  storage: FileStorage;
  /** Where backup files are written (BACKUP_DIR, else `backups` in the data directory). */
  backupDir: string;
  /** Live events of every instance (LISTEN on PostgreSQL / PGlite), for the SSE stream. */
  events: EventBus;
  /** Outgoing e-mail; absent when SMTP_URL is not configured (then nothing is queued). */
  mailer?: Mailer;
  /** PostgreSQL only: the pool's occupancy, for readiness. */
  poolStats?: () => PoolStats;
  /** This instance's Prometheus metrics; absent when they are served nowhere (METRICS_TOKEN, METRICS_PORT). */
  metrics?: Metrics;
  /** An OpenAI-compatible endpoint that may reword the Copilot's answers (LLM_BASE_URL); absent: templates only. */
  llm?: { baseUrl: string; apiKey: string | undefined; model: string };
  /** After a webhook's secret is rotated, deliveries carry the old secret's signature too for this many hours (WEBHOOK_SECRET_GRACE_HOURS). */
  webhookSecretGraceHours: number;
  /** Where Outlay is reached (PUBLIC_URL, no trailing slash); absolute links are built from it with absoluteUrl, never from the Host header. */
  publicUrl: string;
}

export interface AuthInfo {
  userId: string;
  sessionId: string;
  deviceId: string;
  role: Role;
  /** The system role's scope (a custom role may widen single permissions; see grants). */
  scope: Scope;
  permissions: readonly Permission[];
  grants: Grants;
  customRoleId: string | null;
  organizationId: string | null;
  departmentId: string | null;
  reauthAt: Date;
  /** Set when the call came with an API key instead of a session. */
  apiKey?: { id: string; name: string } | null;
}

/** Services take this and nothing from Fastify, so they are testable without HTTP. */
export interface Ctx extends AppDeps {
  now: Date;
  log: FastifyBaseLogger;
  ip: string | null;
  userAgent: string | null;
  auth: AuthInfo | null;
}

/**
 * The client as audit events record it. A call made with an API key names the key in front, so
 * every event of that call says which key acted for its creator.
 */
function userAgentOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent']?.slice(0, 512) ?? null;
  const key = request.auth?.apiKey;
  if (!key) return agent;
  return agent ? `via API key ${key.name} (${agent})` : `via API key ${key.name}`;
}

export function contextOf(request: FastifyRequest, deps: AppDeps): Ctx {
  return {
    ...deps,
    now: deps.clock(),
    log: request.log,
    ip: request.ip ?? null,
    userAgent: userAgentOf(request),
    auth: request.auth ?? null,
  };
}

export function requireAuth(ctx: Ctx): AuthInfo {
  if (!ctx.auth) throw new Error('requireAuth on an unauthenticated context');
  return ctx.auth;
}
