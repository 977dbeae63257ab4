import Bowser from 'bowser';
import type { ErrorReportSource } from '@outlay/contracts';
import { sha256 } from '../../lib/crypto.ts';

/** How many stack frames name a group: deep enough to tell two crashes apart, shallow enough to survive a refactor below them. */
export const FINGERPRINT_FRAMES = 5;

// Chrome and Node: "    at fn (https://host/assets/index-Bx3k9_aZ.js:12:345)"; Firefox and Safari: "fn@https://host/…:12:345".
const FRAME = /^\s*at\s|^[^@\s]*@\S+:\d+(?::\d+)?\s*$/;
const LINE_COLUMN = /:\d+(?::\d+)?(?=\)|\s*$)/g;
const ORIGIN = /\b[a-z][a-z0-9+.-]*:\/\/[^/\s)]*/gi;
// Vite names assets `name-<8 characters of base64url hash>.js`; a rebuild changes only the hash.
const ASSET_HASH = /([/\\][\w.-]+?)-[A-Za-z0-9_-]{8}(\.m?js)\b/g;
const QUERY = /\?[^\s):]*/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX = /\b0x[0-9a-f]+\b|\b[0-9a-f]{16,}\b/gi;
const NUMBER = /\b\d+(\.\d+)?\b/g;

/**
 * The message with what varies between occurrences of one bug (ids, numbers, addresses) made
 * constant, so "Request 1432 not found" and "Request 1433 not found" are one group.
 */
export function normalizeMessage(message: string): string {
  return message.replace(UUID, '<id>').replace(HEX, '<hex>').replace(NUMBER, '<n>').replace(/\s+/g, ' ').trim();
}

/** One frame without its origin, line, column, query string or build hash. */
export function normalizeFrame(frame: string): string {
  return frame
    .replace(ORIGIN, '')
    .replace(QUERY, '')
    .replace(LINE_COLUMN, '')
    .replace(ASSET_HASH, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The top frames of a stack, normalized; the message lines Chrome puts first are skipped. */
export function topFrames(stack: string | null | undefined, count = FINGERPRINT_FRAMES): string[] {
  if (!stack) return [];
  return stack
    .split('\n')
    .filter((line) => FRAME.test(line))
    .slice(0, count)
    .map(normalizeFrame);
}

/** A group's identity: where it happened, its normalized message and its top frames. */
export function fingerprintOf(
  source: ErrorReportSource,
  message: string,
  stack: string | null | undefined,
  route?: string,
): string {
  const parts = [source, normalizeMessage(message), ...topFrames(stack)];
  // A server error is told apart by its route too: the same failing helper behind two routes is two problems to triage.
  if (source === 'server' && route) parts.splice(1, 0, route);
  return sha256(parts.join('\n'));
}

/** "Chrome 131 on Windows" from a user agent, or null when there is none or it names nothing known. */
export function browserOf(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const name = parsed.browser.name;
  if (!name) return null;
  const major = parsed.browser.version?.split('.')[0];
  const os = parsed.os.name;
  return `${name}${major ? ` ${major}` : ''}${os ? ` on ${os}` : ''}`;
}
