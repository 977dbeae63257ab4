import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_MESSAGES } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';

/** Only ordinary public unicast addresses; loopback, private, link-local, CGNAT and the rest are internal. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/**
 * Refuses a destination whose host resolves to any internal address (every address is checked:
 * a name with one public and one private record would otherwise reach inside), unless an
 * administrator allows private destinations.
 */
export async function checkDestination(url: string, allowPrivate: boolean): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AppError('VALIDATION_ERROR', { message: WEBHOOK_MESSAGES.notHttp });
  if (allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await resolveAll(host);
  } catch {
    throw new AppError('VALIDATION_ERROR', { message: WEBHOOK_MESSAGES.unresolvable });
  }
  if (addresses.length === 0) throw new AppError('VALIDATION_ERROR', { message: WEBHOOK_MESSAGES.unresolvable });
  if (addresses.some((a) => !isPublicAddress(a.address))) throw new AppError('VALIDATION_ERROR', { message: WEBHOOK_MESSAGES.privateAddress });
}

/**
 * The lookup the delivery connects with: it checks the addresses it is about to use, so a name
 * that changes to an internal address after the webhook was saved (DNS rebinding) is refused too.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate && (list.length === 0 || list.some((a) => !isPublicAddress(a.address)))) {
        return callback(Object.assign(new Error(WEBHOOK_MESSAGES.privateAddress), { code: 'EPRIVATE' }), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
