import { describe, expect, it } from 'vitest';
import {
  benford,
  BENFORD_FIRST_DIGIT,
  binomialUpperTail,
  digitCounts,
  firstDigit,
  median,
  medianAbsoluteDeviation,
  outlierBound,
  robustZScore,
  runsWithin,
} from './findings.statistics.ts';

describe('median and MAD', () => {
  it('take the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('measure the spread by the median distance to the median', () => {
    // median 3; deviations 2, 1, 0, 1, 97 → median 1
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 100])).toBe(1);
    expect(medianAbsoluteDeviation([])).toBeNull();
  });

  it('scores a value by the modified z-score 0.6745 (x − median) / MAD', () => {
    const values = [10, 11, 12, 12, 13, 14, 90];
    const med = median(values)!;
    const mad = medianAbsoluteDeviation(values)!;
    expect(med).toBe(12);
    expect(mad).toBe(1);
    expect(robustZScore(90, med, mad)).toBeCloseTo(52.611, 3);
    expect(robustZScore(13, med, mad)).toBeCloseTo(0.6745, 6);
    // The outlier does not widen the yardstick (a plain z-score of 90 here is only about 2.3).
    expect(robustZScore(14, med, mad)!).toBeLessThan(3.5);
  });

  it('has no score without spread', () => {
    expect(robustZScore(5, 1, 0)).toBeNull();
  });

  it('gives the amount where a score passes 3.5', () => {
    const bound = outlierBound(100, 20);
    expect(robustZScore(bound, 100, 20)).toBeCloseTo(3.5, 10);
  });
});

describe('Benford first-digit test', () => {
  it('expects log10(1 + 1/d)', () => {
    expect(BENFORD_FIRST_DIGIT[0]).toBeCloseTo(0.30103, 5);
    expect(BENFORD_FIRST_DIGIT[8]).toBeCloseTo(0.04576, 5);
    expect(BENFORD_FIRST_DIGIT.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
  });

  it('reads the first significant digit of a decimal string', () => {
    expect(firstDigit('4890.00')).toBe(4);
    expect(firstDigit('0.045')).toBe(4);
    expect(firstDigit('0.00')).toBeNull();
    expect(digitCounts(['1.00', '19', '250', '0'])).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('finds amounts that follow the law close to it', () => {
    // Exactly Benford's proportions of 10,000 amounts, rounded.
    const counts = BENFORD_FIRST_DIGIT.map((p) => Math.round(p * 10_000));
    const r = benford(counts)!;
    expect(r.mad).toBeLessThan(0.0001);
    expect(r.chiSquare).toBeLessThan(0.1);
    expect(r.conformity).toBe('close');
  });

  it('flags amounts bunched on one digit, with Nigrini’s MAD and the chi-square', () => {
    // 120 amounts, 60 of them starting with 4 (as when everything is kept just under 5,000).
    const counts = [20, 10, 8, 60, 6, 5, 5, 3, 3];
    const r = benford(counts)!;
    expect(r.n).toBe(120);
    // MAD = mean |observed − expected|: computed by hand from the proportions.
    const expected = counts.reduce((s, c, i) => s + Math.abs(c / 120 - BENFORD_FIRST_DIGIT[i]!), 0) / 9;
    expect(r.mad).toBeCloseTo(expected, 12);
    expect(r.mad).toBeGreaterThan(0.015);
    expect(r.conformity).toBe('nonconformity');
    expect(r.mostExcessDigit).toBe(4);
    expect(r.chiSquare).toBeGreaterThan(20.09);
  });

  it('has nothing to say of no amounts', () => {
    expect(benford([0, 0, 0, 0, 0, 0, 0, 0, 0])).toBeNull();
  });
});

describe('binomial upper tail', () => {
  it('is the chance of k or more successes', () => {
    // P(X ≥ 2), n = 3, p = 0.5: (3 + 1) / 8
    expect(binomialUpperTail(2, 3, 0.5)).toBeCloseTo(0.5, 12);
    expect(binomialUpperTail(0, 10, 0.3)).toBe(1);
    expect(binomialUpperTail(11, 10, 0.3)).toBe(0);
    // 10 of 10 on weekends when 2/7 of days are: (2/7)^10
    expect(binomialUpperTail(10, 10, 2 / 7)).toBeCloseTo((2 / 7) ** 10, 15);
  });
});

describe('runs within a window', () => {
  it('groups items whose days lie within the window of the run’s first item', () => {
    const runs = runsWithin([1, 30, 3, 8, 31, 9], (d) => d, 7);
    expect(runs).toEqual([[1, 3, 8], [9], [30, 31]]);
  });
});
