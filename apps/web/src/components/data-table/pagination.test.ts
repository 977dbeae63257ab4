import { describe, expect, it } from 'vitest';
import { rangeLabel } from './pagination';

describe('rangeLabel', () => {
  it('names the rows shown out of the total', () => {
    expect(rangeLabel(2, 25, 132)).toBe('26–50 of 132');
    expect(rangeLabel(1, 25, 0)).toBe('0 of 0');
  });

  it('says "+" when the server stopped counting (a large list)', () => {
    expect(rangeLabel(1, 25, 1000, true)).toBe('1–25 of 1,000+');
    expect(rangeLabel(1, 25, 1000, false)).toBe('1–25 of 1,000');
    expect(rangeLabel(42, 25, 1000, true)).toBe('1,026–1,050 of 1,050+');
    expect(rangeLabel(42, 25, 1000, true, 3)).toBe('1,026–1,028 of 1,028+');
  });
});
