import { z } from 'zod';
import { isoDate } from './primitives.ts';

export const JOURNAL_FORMAT_VALUES = ['csv', 'ledger'] as const;
export type JournalFormat = (typeof JOURNAL_FORMAT_VALUES)[number];

/** The longest span one journal download covers. */
export const JOURNAL_MAX_DAYS = 366 * 3;

/**
 * The accounting journal of paid requests and payroll runs, as plain-text accounting (`ledger`,
 * read by hledger and ledger) or one CSV row per posting.
 */
export const journalQuery = z
  .object({
    from: isoDate,
    to: isoDate,
    organizationId: z.uuid('Not a valid organization').optional(),
    format: z.enum(JOURNAL_FORMAT_VALUES).default('ledger'),
  })
  .refine((q) => q.from <= q.to, { message: 'The start date must not be after the end date', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < JOURNAL_MAX_DAYS, {
    message: 'Choose at most three years',
    path: ['from'],
  });
export type JournalQuery = z.input<typeof journalQuery>;

/** The fixed accounts of the journal (an expense posts to its category's GL account). */
export const JOURNAL_ACCOUNTS = {
  payable: 'Liabilities:Accounts Payable',
  bank: 'Assets:Bank',
  payroll: 'Expenses:Payroll',
  salariesPayable: 'Liabilities:Salaries Payable',
  incomeTax: 'Liabilities:Income Tax Withheld',
  pension: 'Liabilities:Pension Contributions',
} as const;
