// Runs the receipt reader over the committed sample set (fixtures/receipts, made by
// scripts/receipts/generate.mjs) and scores each field against truth.json. Shared by the accuracy
// test and `npm run bench:receipts`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECEIPT_FIELDS, type ReceiptField, type ReceiptScan } from '@outlay/contracts';
import { readReceipt } from '../../src/modules/receipts/receipts.service.ts';

export const RECEIPT_SET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/receipts');

export interface SampleTruth {
  file: string;
  receipt: string;
  kind: string;
  group: 'clean' | 'photographed';
  expected: Record<ReceiptField, string | null>;
}
export interface SampleResult extends SampleTruth {
  got: ReceiptScan;
  ms: number;
  right: Record<ReceiptField, boolean>;
}

/** Names compare without case, punctuation or spacing; everything else exactly. */
export function fieldRight(field: ReceiptField, expected: string | null, got: string | null): boolean {
  if (expected === null || got === null) return expected === got;
  if (field === 'merchant') {
    const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
    return norm(expected) === norm(got);
  }
  return expected === got;
}

export async function loadTruth(): Promise<SampleTruth[]> {
  return JSON.parse(await readFile(path.join(RECEIPT_SET_DIR, 'truth.json'), 'utf8')) as SampleTruth[];
}

export async function runReceiptSet(onSample?: (r: SampleResult) => void): Promise<SampleResult[]> {
  const results: SampleResult[] = [];
  for (const sample of await loadTruth()) {
    const data = await readFile(path.join(RECEIPT_SET_DIR, sample.file));
    const started = performance.now();
    const got = await readReceipt(data);
    const ms = performance.now() - started;
    const right = Object.fromEntries(
      RECEIPT_FIELDS.map((f) => [f, fieldRight(f, sample.expected[f], got[f])]),
    ) as Record<ReceiptField, boolean>;
    const result = { ...sample, got, ms, right };
    results.push(result);
    onSample?.(result);
  }
  return results;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function summarize(results: SampleResult[]) {
  const group = (g: 'clean' | 'photographed') => {
    const rows = results.filter((r) => r.group === g);
    const fields = rows.length * RECEIPT_FIELDS.length;
    const right = rows.reduce((n, r) => n + RECEIPT_FIELDS.filter((f) => r.right[f]).length, 0);
    return { receipts: rows.length, fields, right, accuracy: fields === 0 ? 0 : right / fields };
  };
  const perField = Object.fromEntries(
    RECEIPT_FIELDS.map((f) => [f, results.filter((r) => r.right[f]).length / results.length]),
  );
  const times = results.map((r) => r.ms);
  return {
    clean: group('clean'),
    photographed: group('photographed'),
    perField,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
  };
}
