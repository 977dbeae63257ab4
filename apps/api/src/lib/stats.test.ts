import { describe, expect, it } from 'vitest';
import { percentile } from './stats.ts';

describe('percentile', () => {
  it('interpolates between ranks as percentile_cont does', () => {
    // SELECT percentile_cont(p) WITHIN GROUP (ORDER BY v) FROM unnest('{1,2,3,4}'::float8[]) v
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(percentile([1, 2, 3, 4, 10], 0.9)).toBeCloseTo(7.6, 12);
    expect(percentile([5], 0.9)).toBe(5);
    expect(percentile([2, 8], 0)).toBe(2);
    expect(percentile([2, 8], 1)).toBe(8);
  });

  it('has no percentile of nothing', () => {
    expect(percentile([], 0.9)).toBeNull();
  });
});
