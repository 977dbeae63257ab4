import { isApiError } from './api-error';

/**
 * Optimistic concurrency with the API: a record's `version` goes back in If-Match, and a save
 * based on an older copy is refused with 412 instead of overwriting someone else's change.
 */
export function ifMatch(version: number | undefined): Record<string, string> {
  return version === undefined ? {} : { 'If-Match': `"${version}"` };
}

export function isVersionConflict(error: unknown): boolean {
  return isApiError(error) && error.status === 412;
}
