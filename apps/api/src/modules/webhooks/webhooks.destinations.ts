import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_MESSAGES } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';

/** Only ordinary public unicast addresses; loopback, private, link-local, CGNAT and the rest are internal. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  // `dns.lookup` read at call time (not a named import), so a test can stand in for the resolver.
  return new Promise((resolve, reject) =>
    dns.lookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}

/** Why a destination cannot be used: not http(s), a host that does not resolve, or an internal address. */
export type DestinationProblem = 'notHttp' | 'unresolvable' | 'privateAddress';

export type Destination = { ok: true; address: LookupAddress } | { ok: false; problem: DestinationProblem };

/**
 * Resolves the URL's host once, an IP literal as well as a name, and checks every address it
 * gives (a name with one public and one private record would otherwise reach inside) unless
 * private destinations are allowed. The answer is the one address to connect to.
 */
export async function resolveDestination(url: string, allowPrivate: boolean): Promise<Destination> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: 'notHttp' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, problem: 'notHttp' };
  // The URL parser has already turned shorthand forms (2130706433, 0x7f.1) into dotted quads.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  else {
    try {
      addresses = await resolveAll(host);
    } catch {
      return { ok: false, problem: 'unresolvable' };
    }
  }
  if (addresses.length === 0) return { ok: false, problem: 'unresolvable' };
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address)))
    return { ok: false, problem: 'privateAddress' };
  return { ok: true, address: addresses[0]! };
}

/** The check when a webhook is saved: a refusal is the client's 400. */
export async function checkDestination(url: string, allowPrivate: boolean): Promise<void> {
  const destination = await resolveDestination(url, allowPrivate);
  // A name that does not resolve yet is fine for an internal receiver an administrator allowed.
  if (!destination.ok && !(allowPrivate && destination.problem === 'unresolvable')) {
    throw new AppError('VALIDATION_ERROR', { message: WEBHOOK_MESSAGES[destination.problem] });
  }
}

/**
 * The lookup a delivery connects with: it answers the address that was checked and nothing
 * else, so the connection never resolves the name a second time (a name that changes to an
 * internal address between the check and the connection, DNS rebinding, cannot reach inside).
 */
export function pinnedLookup(checked: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [checked]);
    return callback(null, checked.address, checked.family);
  };
}
