import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength.ts';

describe('passwordStrength (docs/product.md §6.4)', () => {
  it.each([
    ['', 0, 'Very Weak'],
    ['abc', 1, 'Very Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['Abcdefgh', 3, 'Fair'],
    ['Abcdefg1', 4, 'Good'],
    ['Abcdef1!', 5, 'Strong'],
    ['A1!', 3, 'Fair'],
  ])('%j scores %i, %s', (password, score, label) => {
    const s = passwordStrength(password);
    expect(s.score).toBe(score);
    expect(s.label).toBe(label);
  });

  it('reports each rule', () => {
    expect(passwordStrength('abc1').checks).toEqual({
      length: false,
      uppercase: false,
      lowercase: true,
      digit: true,
      special: false,
    });
  });
});
