// The statistics behind the findings: pure functions on numbers, no database. Amounts reach them
// as floats only to be scored; what people read comes from the decimals.

/** The median of any values (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median absolute deviation from the median (unscaled); null for no values. */
export function medianAbsoluteDeviation(values: readonly number[]): number | null {
  const m = median(values);
  if (m === null) return null;
  return median(values.map((v) => Math.abs(v - m)));
}

/**
 * The modified z-score of Iglewicz and Hoaglin: 0.6745 (x − median) / MAD. 0.6745 is the 0.75
 * quantile of the standard normal, so for normal data it reads like an ordinary z-score, but one
 * extreme value cannot hide itself by inflating the spread. Null when MAD is 0 (half the values
 * are equal: there is no spread to measure against).
 */
export function robustZScore(x: number, med: number, mad: number): number | null {
  if (!(mad > 0)) return null;
  return (0.6745 * (x - med)) / mad;
}

/** Iglewicz and Hoaglin recommend calling |modified z| above 3.5 a potential outlier. */
export const OUTLIER_Z = 3.5;

/** The amount above which a value's modified z-score passes `z`: the inverse of robustZScore. */
export function outlierBound(med: number, mad: number, z = OUTLIER_Z): number {
  return med + (z * mad) / 0.6745;
}

// --- Benford ----------------------------------------------------------------------------------

/** P(first digit = d) = log10(1 + 1/d), d = 1..9. */
export const BENFORD_FIRST_DIGIT: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => Math.log10(1 + 1 / d));

/** The first significant digit of a positive amount given as a decimal string ("0.045" → 4); null for zero. */
export function firstDigit(amount: string): number | null {
  const m = /[1-9]/.exec(amount.replace(/^[^0-9]*/, ''));
  return m ? Number(m[0]) : null;
}

/** counts[d-1] = how many amounts start with d. */
export function digitCounts(amounts: readonly string[]): number[] {
  const counts = Array.from({ length: 9 }, () => 0);
  for (const a of amounts) {
    const d = firstDigit(a);
    if (d) counts[d - 1]!++;
  }
  return counts;
}

export interface BenfordResult {
  n: number;
  /** Mean absolute deviation of the observed from Benford's proportions (Nigrini). */
  mad: number;
  /** Pearson's chi-square against Benford, 8 degrees of freedom. */
  chiSquare: number;
  conformity: 'close' | 'acceptable' | 'marginal' | 'nonconformity';
  /** The digit furthest above its expected share. */
  mostExcessDigit: number;
}

/** Nigrini's first-digit MAD bands (Benford's Law, 2012, table 7.1). */
export const NIGRINI_FIRST_DIGIT = { close: 0.006, acceptable: 0.012, marginal: 0.015 } as const;

/** The chi-square critical value for 8 degrees of freedom at the 1% level. */
export const CHI_SQUARE_8DF_1PCT = 20.09;

export function benford(counts: readonly number[]): BenfordResult | null {
  const n = counts.reduce((s, c) => s + c, 0);
  if (n === 0) return null;
  let mad = 0;
  let chiSquare = 0;
  let mostExcessDigit = 1;
  let excess = -Infinity;
  for (let i = 0; i < 9; i++) {
    const expected = BENFORD_FIRST_DIGIT[i]!;
    const observed = counts[i]! / n;
    mad += Math.abs(observed - expected);
    chiSquare += (counts[i]! - n * expected) ** 2 / (n * expected);
    if (observed - expected > excess) {
      excess = observed - expected;
      mostExcessDigit = i + 1;
    }
  }
  mad /= 9;
  const conformity =
    mad <= NIGRINI_FIRST_DIGIT.close
      ? 'close'
      : mad <= NIGRINI_FIRST_DIGIT.acceptable
        ? 'acceptable'
        : mad <= NIGRINI_FIRST_DIGIT.marginal
          ? 'marginal'
          : 'nonconformity';
  return { n, mad, chiSquare, conformity, mostExcessDigit };
}

// --- timing -----------------------------------------------------------------------------------

function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/**
 * P(X ≥ k) for X ~ Binomial(n, p): how surprising k weekend or holiday requests out of n are when
 * a share p of the days are weekends or holidays.
 */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const lf = logFactorial(n);
  let sum = 0;
  for (let i = k; i <= n; i++) {
    sum += Math.exp(lf - logFactorial(i) - logFactorial(n - i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  }
  return Math.min(1, sum);
}

// --- grouping ---------------------------------------------------------------------------------

/**
 * Runs of items whose dates lie within `days` of the run's first item (items sorted by day
 * number). A purchase split in several requests shows up as one run.
 */
export function runsWithin<T>(items: readonly T[], day: (t: T) => number, days: number): T[][] {
  const sorted = [...items].sort((a, b) => day(a) - day(b));
  const runs: T[][] = [];
  let i = 0;
  while (i < sorted.length) {
    const start = day(sorted[i]!);
    const run = [sorted[i]!];
    let j = i + 1;
    while (j < sorted.length && day(sorted[j]!) - start <= days) run.push(sorted[j++]!);
    runs.push(run);
    i = j;
  }
  return runs;
}
