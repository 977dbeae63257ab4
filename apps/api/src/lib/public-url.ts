/** The base used when PUBLIC_URL is not configured (tests, a first local start). */
export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';

/**
 * An absolute link into Outlay: `base` is the configured PUBLIC_URL (deps.publicUrl), never
 * anything taken from the request (its Host header is the client's choice). A link that already
 * has a scheme is returned as it is; a path gets exactly one slash between base and path.
 */
export function absoluteUrl(base: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
