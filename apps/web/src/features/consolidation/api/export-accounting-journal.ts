import type { JournalFormat } from '@outlay/contracts/accounting';
import { downloadFile } from '@/components/data-table';

export const ACCOUNTING_JOURNAL_URL = '/api/accounting/journal';

/** Downloads the accounting journal (hledger/ledger text or CSV) for a date range and organization. */
export function downloadJournal(
  p: { from: string; to: string; organizationId?: string },
  format: JournalFormat,
): Promise<string> {
  const q = new URLSearchParams({ format, from: p.from, to: p.to });
  if (p.organizationId) q.set('organizationId', p.organizationId);
  return downloadFile(`${ACCOUNTING_JOURNAL_URL}?${q}`, `journal.${format === 'csv' ? 'csv' : 'journal'}`);
}
