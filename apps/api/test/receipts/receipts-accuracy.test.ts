// The accuracy floor of receipt reading on the committed sample set (34 receipts: clean, rotated,
// blurred, photographed, PDFs with a text layer and scanned), run once through the real pipeline.
import { afterAll, expect, it } from 'vitest';
import { closeOcr } from '../../src/modules/receipts/receipts.ocr.ts';
import { runReceiptSet, summarize } from './receipt-set.ts';

afterAll(async () => closeOcr());

it('reads at least 95% of fields right on clean receipts and 90% on photographed ones', async () => {
  const results = await runReceiptSet();
  const summary = summarize(results);
  const misses = results.flatMap((r) =>
    Object.entries(r.right)
      .filter(([, ok]) => !ok)
      .map(
        ([field]) =>
          `${r.file} ${field}: ${JSON.stringify(r.got[field as keyof typeof r.got])} instead of ${JSON.stringify(r.expected[field as keyof typeof r.expected])}`,
      ),
  );
  expect(results.length).toBeGreaterThanOrEqual(30);
  expect(summary.clean.accuracy, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  expect(summary.photographed.accuracy, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
}, 300_000);
