import { useMutation } from '@tanstack/react-query';
import type { ReceiptScan } from '@outlay/contracts/receipts';
import { apiJson } from '@/lib/api-client';

export const SCAN_RECEIPT_URL = '/api/receipts/scan';

/** `POST /api/receipts/scan`: the server reads the photo or PDF (offline OCR) and returns the fields it found. */
export function scanReceipt(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiJson<ReceiptScan>('POST', SCAN_RECEIPT_URL, form);
}

export function useScanReceipt() {
  return useMutation({ mutationFn: scanReceipt });
}
