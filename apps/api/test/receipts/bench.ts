// `npm run bench:receipts`: reads the sample set (apps/api/test/fixtures/receipts) through the
// real pipeline and prints field accuracy for clean and photographed receipts, per field, and the
// time per receipt (p50/p95, after the OCR workers are warm; the first, cold read is shown apart).
// While it reads, the event loop's delay is sampled: OCR runs in worker threads, so the process
// stays free to answer other calls.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RECEIPT_FIELDS } from '@outlay/contracts';
import { closeOcr } from '../../src/modules/receipts/receipts.ocr.ts';
import { readReceipt } from '../../src/modules/receipts/receipts.service.ts';
import { RECEIPT_SET_DIR, runReceiptSet, summarize } from './receipt-set.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const coldStart = performance.now();
await readReceipt(await readFile(path.join(RECEIPT_SET_DIR, 'us-taxi.png')));
await readReceipt(await readFile(path.join(RECEIPT_SET_DIR, 'jp-convenience-text.pdf')));
const cold = performance.now() - coldStart;

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const results = await runReceiptSet((r) => {
  const wrong = RECEIPT_FIELDS.filter((f) => !r.right[f]).map(
    (f) => `${f}=${JSON.stringify(r.got[f])} (want ${JSON.stringify(r.expected[f])})`,
  );
  console.log(
    `${r.file.padEnd(30)} ${r.kind.padEnd(12)} ${String(Math.round(r.ms)).padStart(5)} ms  ${wrong.join('  ') || 'all right'}`,
  );
});
loop.disable();
const s = summarize(results);
console.log('');
console.log(`receipts: ${results.length} (clean ${s.clean.receipts}, photographed ${s.photographed.receipts})`);
console.log(`fields right, clean:        ${s.clean.right}/${s.clean.fields} = ${pct(s.clean.accuracy)} (target ≥ 95%)`);
console.log(
  `fields right, photographed: ${s.photographed.right}/${s.photographed.fields} = ${pct(s.photographed.accuracy)} (target ≥ 90%)`,
);
console.log(`per field: ${RECEIPT_FIELDS.map((f) => `${f} ${pct(s.perField[f]!)}`).join(', ')}`);
console.log(
  `time per receipt: p50 ${Math.round(s.p50)} ms, p95 ${Math.round(s.p95)} ms, max ${Math.round(s.max)} ms (target p95 ≤ 3000 ms)`,
);
console.log(`cold start (first image and first PDF, loading the model and pdf.js): ${Math.round(cold)} ms`);
console.log(
  `event loop delay while reading: p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`,
);
await closeOcr();
