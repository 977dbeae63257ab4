// Receipt reading (docs/product.md §3.14 /receipt-photo-ai): the server reads a photo or PDF of a receipt
// offline and returns the fields it found, each with its confidence; a field it did not find is
// null, never guessed. Other tools build on this shape: keep it.
import { z } from 'zod';
import { moneyAmount } from './primitives.ts';
import { createRequestInput } from './requests.ts';

/** The files a receipt may come as (checked by content, not by name). */
export const RECEIPT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const RECEIPT_ACCEPT = 'image/*,application/pdf';
/** The same ceiling as an attachment, since the receipt is attached to the request it becomes. */
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
export const RECEIPT_FIELDS = ['merchant', 'date', 'total', 'tax', 'currency'] as const;
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];
/** Below this the review screen asks the person to check the field. */
export const RECEIPT_LOW_CONFIDENCE = 0.8;

export const RECEIPT_MESSAGES = {
  type: 'A receipt must be a PNG or JPEG photo or a PDF',
  size: 'A receipt may be at most 10 MB',
  empty: 'The file is empty',
  missing: 'Choose a receipt to read',
  unreadable: 'This file could not be read as an image or PDF',
} as const;

const confidence = z.number().min(0).max(1);

export const receiptScan = z.object({
  merchant: z.string().nullable(),
  /** The document's date, YYYY-MM-DD. */
  date: z.string().nullable(),
  /** The final amount charged, tip and service included, as a dot-decimal string. */
  total: z.string().nullable(),
  /** VAT or sales tax summed over rates; null when none is printed. */
  tax: z.string().nullable(),
  /** ISO 4217. */
  currency: z.string().nullable(),
  confidence: z.object({
    merchant: confidence,
    date: confidence,
    total: confidence,
    tax: confidence,
    currency: confidence,
  }),
  /** The text that was read, line by line. */
  text: z.string(),
});
export type ReceiptScan = z.infer<typeof receiptScan>;

/**
 * The review form of /receipt-photo-ai: the request it creates (amount = the receipt's total,
 * expense date = its date) plus what the receipt says that is not a request field: the merchant
 * and the tax, which becomes the tax of a single line item.
 */
export const receiptRequestForm = createRequestInput.safeExtend({
  merchant: z.string().trim().max(200, 'At most 200 characters').optional(),
  taxAmount: z.union([z.literal(''), moneyAmount]).optional(),
});
export type ReceiptRequestForm = z.input<typeof receiptRequestForm>;
