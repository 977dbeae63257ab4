import { describe, expect, it } from 'vitest';
import { backoffCeilingMs, backoffDelayMs } from './backoff.ts';

const policy = { baseMs: 30_000, capMs: 3_600_000 };

/** A fixed sequence in place of Math.random, so each draw is known. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('backoff', () => {
  it('doubles from the base after each failure and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 50, 5000].map((n) => backoffCeilingMs(n, policy))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    // No failure yet, or a nonsense count, waits the base.
    expect(backoffCeilingMs(0, policy)).toBe(30_000);
    expect(backoffCeilingMs(-3, policy)).toBe(30_000);
  });

  it('draws between half the ceiling and all of it, from the injected random source', () => {
    expect(backoffDelayMs(1, policy, () => 0)).toBe(15_000);
    expect(backoffDelayMs(1, policy, () => 0.5)).toBe(22_500);
    expect(backoffDelayMs(1, policy, () => 0.999_999)).toBe(30_000);
    expect(backoffDelayMs(3, policy, sequence(0.25))).toBe(60_000 + 15_000);
    // Past the cap the jitter still spreads the waits, within the capped ceiling.
    expect(backoffDelayMs(40, policy, () => 0)).toBe(1_800_000);
    expect(backoffDelayMs(40, policy, () => 0.999_999)).toBe(3_599_998);
  });

  it('stays within its bounds for any draw, and is not the same for every client', () => {
    const random = sequence(...Array.from({ length: 97 }, (_, i) => ((i * 37) % 97) / 97));
    const seen = new Set<number>();
    for (let failures = 1; failures <= 20; failures++) {
      const ceiling = backoffCeilingMs(failures, policy);
      for (let k = 0; k < 50; k++) {
        const delay = backoffDelayMs(failures, policy, random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(delay).toBeLessThanOrEqual(policy.capMs);
        expect(Number.isInteger(delay)).toBe(true);
        if (failures === 20) seen.add(delay);
      }
    }
    expect(seen.size).toBeGreaterThan(40);
    // A source out of its range cannot push a delay out of bounds.
    expect(backoffDelayMs(2, policy, () => 7)).toBe(60_000);
    expect(backoffDelayMs(2, policy, () => -1)).toBe(30_000);
  });
});
