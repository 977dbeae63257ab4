import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { backoffCeilingMs } from '@outlay/contracts/backoff';
import { createQueryClient, QUERY_RETRY, queryRetryDelay, shouldRetryQuery } from './query-client';

describe('query defaults (docs/product.md §6.7, §6.8)', () => {
  it('never retries errors that mention 401 or 403', () => {
    expect(shouldRetryQuery(0, new Error('401: Unauthorized'))).toBe(false);
    expect(shouldRetryQuery(0, new Error('403: Forbidden'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(403, 'Forbidden'))).toBe(false);
  });
  it('retries other errors once', () => {
    expect(shouldRetryQuery(0, new Error('500: boom'))).toBe(true);
    expect(shouldRetryQuery(1, new Error('500: boom'))).toBe(false);
  });
  it('backs off 1 s doubled per attempt, capped at 30 s, with jitter of up to half', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 10].map((i) => backoffCeilingMs(i + 1, QUERY_RETRY));
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    for (const [i, ceiling] of ceilings.entries()) {
      const delay = queryRetryDelay([0, 1, 2, 3, 4, 5, 10][i]!);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
  it('uses 10 minutes staleness, no refetch on focus, mount or interval, and no mutation retries', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      staleTime: 600_000,
      refetchOnWindowFocus: false,
      refetchOnMount: false,
      refetchInterval: false,
    });
    expect(mutations?.retry).toBe(false);
  });
});
