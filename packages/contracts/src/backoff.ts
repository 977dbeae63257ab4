// The one retry delay of the product: e-mail and webhook deliveries, the database's event
// listener, the web app's query retries and live-event reconnects all wait through it.
//
// The delay doubles with each failure up to a cap, and a random part spreads the retries of many
// clients that failed together (an SMTP server or a receiver coming back is not hit by all of
// them in the same second). The jitter is "equal jitter": the wait is between half the doubled
// delay and all of it. A floor of half keeps the retry windows that the attempt limits were sized
// for (five e-mail attempts span a quarter of an hour at least, fifteen webhook attempts hours),
// which full jitter, able to draw a few milliseconds several times in a row, would not.

export interface BackoffPolicy {
  /** The delay before the first retry, before jitter. */
  baseMs: number;
  /** The longest delay, before jitter. */
  capMs: number;
}

/** A source of numbers in [0, 1): Math.random in the product, a fixed sequence in tests. */
export type RandomSource = () => number;

/** The delay before retry `failures + 1`, before jitter: base × 2^(failures − 1), at most the cap. */
export function backoffCeilingMs(failures: number, policy: BackoffPolicy): number {
  const n = Math.max(0, Math.floor(failures) - 1);
  // 2^n overflows to Infinity long after it passed any cap; min() keeps it finite.
  return Math.min(policy.baseMs * 2 ** Math.min(n, 52), policy.capMs);
}

/**
 * How long to wait after `failures` failed attempts (1 after the first): a whole number of
 * milliseconds in [ceiling / 2, ceiling], the ceiling doubling from `baseMs` up to `capMs`.
 */
export function backoffDelayMs(failures: number, policy: BackoffPolicy, random: RandomSource = Math.random): number {
  const ceiling = backoffCeilingMs(failures, policy);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}
