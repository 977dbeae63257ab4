import { describe, expect, it } from 'vitest';
import { BUCKET_GAMMA, bucketValue, histogramPercentile, percentile } from './stats.ts';

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

describe('histogramPercentile', () => {
  const bucketOf = (seconds: number) => (seconds <= 1 ? 0 : Math.ceil(Math.log(seconds) / Math.log(BUCKET_GAMMA)));
  const histogram = (values: number[]) => {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + 1);
    return [...counts].map(([bucket, count]) => ({ bucket, count }));
  };

  it('stays within 1% of the exact percentile', () => {
    // A fixed pseudo-random spread of durations from a minute to two months.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const values = Array.from({ length: 2_000 }, () => Math.round(60 * Math.exp(next() * 11)));
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [0, 0.1, 0.5, 0.9, 0.99, 1]) {
      const exact = percentile(sorted, p)!;
      const approx = histogramPercentile(histogram(values), p)!;
      expect(Math.abs(approx - exact) / exact).toBeLessThan(0.01);
    }
  });

  it('reads a one-value histogram as that value and nothing as null', () => {
    expect(histogramPercentile([{ bucket: 0, count: 3 }], 0.5)).toBe(0);
    expect(bucketValue(bucketOf(72_000)) / 72_000).toBeCloseTo(1, 1);
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(histogramPercentile([{ bucket: 5, count: 0 }], 0.5)).toBeNull();
  });
});
