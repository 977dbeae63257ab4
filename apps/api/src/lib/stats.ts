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
