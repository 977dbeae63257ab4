import { describe, expect, it } from 'vitest';
import { rowsOf } from './receipts.ocr.ts';

const word = (text: string, x0: number, x1: number, y0 = 100, y1 = 120, confidence = 0.9) => ({
  text,
  confidence,
  x0,
  x1,
  y0,
  y1,
});

describe('rows rebuilt from word boxes', () => {
  it('puts a label and its far right amount on one row, even a little off the line, top to bottom', () => {
    const rows = rowsOf([
      word('$20.60', 500, 560, 104, 124),
      word('TOTAL', 20, 80),
      word('Tip', 20, 50, 60, 80),
      word('$3.00', 500, 550, 62, 82),
    ]);
    expect(rows.map((r) => r.text)).toEqual(['Tip    $3.00', 'TOTAL    $20.60']);
  });
  it('joins a number split at its separator but keeps the space in "Jan 15, 2026"', () => {
    expect(rowsOf([word('$2.', 500, 525), word('29', 540, 560)])[0]!.text).toBe('$2.29');
    expect(rowsOf([word('£15', 500, 530), word('.92', 540, 565)])[0]!.text).toBe('£15.92');
    expect(rowsOf([word('Jan', 20, 50), word('15,', 60, 85), word('2026', 95, 140)])[0]!.text).toBe('Jan 15, 2026');
  });
});
