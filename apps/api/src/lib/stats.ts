/**
 * The p-th percentile (0 ≤ p ≤ 1) of ascending values, interpolating linearly between the two
 * nearest ranks: PostgreSQL's `percentile_cont`, so a figure computed here and one computed in
 * SQL agree (the median of 1, 2, 3, 4 is 2.5; nearest rank would say 2). Null for no values.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (sorted.length - 1) * p;
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** The growth factor of the cycle-time histogram's buckets (cycle_time_monthly, migration 0019). */
export const BUCKET_GAMMA = 1.02;

/**
 * The value a bucket stands for: bucket i ≥ 1 holds (γ^(i−1), γ^i], and 2γ^i/(γ+1) is within
 * (γ−1)/(γ+1) < 1% of anything in it (DDSketch); bucket 0 holds a second or less.
 */
export function bucketValue(bucket: number): number {
  return bucket <= 0 ? 0 : (2 * BUCKET_GAMMA ** bucket) / (BUCKET_GAMMA + 1);
}

/**
 * `percentile` over a histogram: `buckets` are (bucket, count) in any order; the two ranks
 * percentile_cont would interpolate between are read as their buckets' values, so the result is
 * within 1% of the exact percentile of the values the histogram counted. Null for no values.
 */
export function histogramPercentile(buckets: readonly { bucket: number; count: number }[], p: number): number | null {
  const sorted = [...buckets].filter((b) => b.count > 0).sort((a, b) => a.bucket - b.bucket);
  const n = sorted.reduce((sum, b) => sum + b.count, 0);
  if (n === 0) return null;
  const rank = (n - 1) * p;
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const valueAt = (r: number): number => {
    let seen = 0;
    for (const b of sorted) {
      seen += b.count;
      if (r < seen) return bucketValue(b.bucket);
    }
    return bucketValue(sorted.at(-1)!.bucket);
  };
  const low = valueAt(lo);
  return low + (valueAt(hi) - low) * (rank - lo);
}
