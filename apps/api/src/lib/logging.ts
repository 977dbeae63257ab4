import type { FastifyRequest } from 'fastify';

/** Logs never carry credentials, tokens or codes (PRODUCT §2.12). */
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
