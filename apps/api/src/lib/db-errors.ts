/**
 * Which errors mean "the database is not available right now" (a retry later may well succeed)
 * rather than a bug: the one error handler answers them 503 with Retry-After, readiness and
 * background jobs use the same reading.
 */

export interface DatabaseUnavailable {
  /** connection: the server is gone or unreachable; busy: it is up but could not serve in time. */
  kind: 'connection' | 'busy';
  /** What the client is told. */
  message: string;
  /** Seconds, for the Retry-After header. */
  retryAfter: number;
}

const LOST: DatabaseUnavailable = {
  kind: 'connection',
  message: 'The database connection was lost; please retry.',
  retryAfter: 2,
};
const BUSY: DatabaseUnavailable = {
  kind: 'busy',
  message: 'The database is busy; please retry shortly.',
  retryAfter: 1,
};
const SLOW: DatabaseUnavailable = {
  kind: 'busy',
  message: 'The database took too long to answer; please retry.',
  retryAfter: 2,
};

/** SQLSTATE codes outside class 08 (connection exception) that mean the same for a client. */
const BY_SQLSTATE: Record<string, DatabaseUnavailable> = {
  '57P01': LOST, // admin_shutdown: backend terminated (pg_terminate_backend, fast shutdown)
  '57P02': LOST, // crash_shutdown
  '57P03': LOST, // cannot_connect_now: starting up or shutting down
  '53300': BUSY, // too_many_connections
  '55P03': BUSY, // lock_not_available: lock_timeout
  '57014': SLOW, // query_canceled: statement_timeout
};

const BY_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres and pg-pool report these without a code. */
const BY_MESSAGE: [RegExp, DatabaseUnavailable][] = [
  [/^Connection terminated/, LOST],
  [/is not queryable$/, LOST], // a query (or the ROLLBACK after one) on a client whose connection died
  [/^timeout expired$/, LOST], // connect timeout of a new connection
  [/^Cannot use a pool after calling end on the pool$/, LOST],
  [/^timeout exceeded when trying to connect$/, BUSY], // the pool's bounded wait for a connection
];

function classifyOne(error: object): DatabaseUnavailable | null {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^08[0-9A-Z]{3}$/.test(code)) return LOST;
    const known = BY_SQLSTATE[code];
    if (known) return known;
    if (BY_ERRNO.has(code)) return LOST;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string') {
    for (const [re, verdict] of BY_MESSAGE) if (re.test(message)) return verdict;
  }
  return null;
}

/**
 * Reads the error and its causes (drizzle 0.45 wraps driver errors in DrizzleQueryError, Node's
 * connect gives an AggregateError per address tried); null when it is not about availability.
 */
export function databaseUnavailable(error: unknown): DatabaseUnavailable | null {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  while (queue.length > 0 && seen.size < 20) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const verdict = classifyOne(current);
    if (verdict) return verdict;
    queue.push((current as { cause?: unknown }).cause);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return null;
}

/**
 * Values the database refuses as data (SQLSTATE class 22: a malformed number or date, a number
 * out of range, text it cannot store). Schemas should catch these first; this is the safety
 * net, so that one that slips through is the client's 400, not a 500. Drizzle wraps the
 * driver's error (`DrizzleQueryError`, the original in `cause`); pg and PGlite both carry `code`.
 */
const MESSAGES: Record<string, string> = {
  '22001': 'A text is longer than the database can store',
  '22003': 'A number is too large to store',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22021': 'Text contains characters that cannot be stored',
  '22P02': 'A value is not in a form the database accepts',
  '22P05': 'Text contains characters that cannot be stored',
};

export function sqlStateOf(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The message for a data error, or undefined when the error is something else. */
export function dataErrorMessage(error: unknown): string | undefined {
  const code = sqlStateOf(error);
  if (!code?.startsWith('22')) return undefined;
  return MESSAGES[code] ?? 'A value is not valid';
}

/**
 * The unique constraint a write broke (23505), or null for any other error. drizzle wraps the
 * driver's error, so the code may sit on a cause.
 */
export function uniqueViolationOf(error: unknown): { constraint: string } | null {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return { constraint: typeof constraint === 'string' ? constraint : 'unique' };
  }
  return null;
}

export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolationOf(error) !== null;
}

/** The innermost cause's message ("Connection terminated unexpectedly"), for a one-line log. */
export function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 10; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (!cause || typeof cause !== 'object') break;
    current = cause;
  }
  return current instanceof Error ? current.message : String(current);
}
