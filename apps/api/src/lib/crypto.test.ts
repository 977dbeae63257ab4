import { describe, expect, it } from 'vitest';
import { passwordStrength } from '@outlay/contracts';
import { randomString, recoveryCode, temporaryPassword } from './crypto.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Pearson's chi-square statistic of observed counts against a uniform expectation. */
function chiSquare(counts: Map<string, number>, alphabet: string, total: number): number {
  const expected = total / alphabet.length;
  return [...alphabet].reduce((sum, c) => sum + ((counts.get(c) ?? 0) - expected) ** 2 / expected, 0);
}

describe('random strings', () => {
  it('draw every character of a 57-character alphabet equally often', () => {
    const total = 228_000;
    const counts = new Map<string, number>();
    for (const c of randomString(ALPHABET, total)) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 56 degrees of freedom: p = 0.0001 at about 104. A byte modulo 57 gives about 1,000 here.
    expect(chiSquare(counts, ALPHABET, total)).toBeLessThan(110);
    expect(counts.size).toBe(ALPHABET.length);
  });

  it('temporary passwords meet every rule, and do not end alike', () => {
    const passwords = Array.from({ length: 400 }, () => temporaryPassword());
    for (const p of passwords) {
      expect(p).toHaveLength(20);
      expect(passwordStrength(p).score, p).toBe(5);
    }
    expect(new Set(passwords.map((p) => p.slice(-4))).size).toBeGreaterThan(390);
    expect(new Set(passwords).size).toBe(passwords.length);
  });

  it('recovery codes keep their shape', () => {
    expect(recoveryCode()).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
  });
});
