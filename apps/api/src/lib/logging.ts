import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

/** Logs never carry credentials, tokens or codes (docs/product.md §2.12). */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-device-id"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.confirmPassword',
  '*.refreshToken',
  '*.accessToken',
  '*.passwordChangeToken',
  '*.twoFactorToken',
  '*.totpCode',
  '*.secret',
];

// A query parameter whose name says it carries a secret: token, access_token, refreshToken,
// client_secret, api_key, signature, or plainly code / key / sig / auth.
const SECRET_PARAM = /(token|secret|password|passwd|api_?key|signature|jwt)$|^(code|key|sig|auth)$/i;

// A calendar feed's token is its path (calendar apps can send no header): the path is the secret.
const CALENDAR_FEED_PATH = /^(\/api\/calendar\/)(?!feed(?:[/?]|$)|upcoming(?:[/?]|$)|import(?:[/?]|$))[^/?]+/;

/**
 * The logged URL with the values of secret-looking query parameters replaced: no route takes a
 * token in the query, but a client that sends one anyway must not leave it in the logs.
 */
export function redactUrl(raw: string): string {
  const url = raw.replace(CALENDAR_FEED_PATH, '$1[redacted]');
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // An undecodable name is checked as it was sent.
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

type LogMethod = (...args: unknown[]) => void;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * The logger Fastify hands each request: the request's child of the app logger, made on the first
 * line the request writes at a level that is on. pino makes a child by serialising (and redacting)
 * its bindings, a few per cent of the CPU of the calls every page makes, for a logger that most
 * requests never write to once the level is above info.
 */
class DeferredChildLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: ParentLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: ParentLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  // One method per level (fatal … trace), each writing through the child once it is needed.
  static {
    for (const level of LEVELS) {
      Object.defineProperty(DeferredChildLogger.prototype, level, {
        value(this: DeferredChildLogger, ...args: unknown[]) {
          if (this.#child || this.#parent.isLevelEnabled(level)) (this.#made()[level] as LogMethod)(...args);
        },
        writable: true,
        configurable: true,
      });
    }
  }

  #made(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#made().level = level;
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request's logger, made when it first writes. */
export function deferredChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Without a logger Fastify's stand-in has no levels, and its child is itself.
  if (typeof (logger as Partial<ParentLogger>).isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new DeferredChildLogger(logger as ParentLogger, bindings, options) as unknown as FastifyBaseLogger;
}
