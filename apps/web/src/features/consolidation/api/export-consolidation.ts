import { downloadFile } from '@/components/data-table';
import type { ConsolidationParams } from './get-consolidation';

export const CONSOLIDATION_EXPORT_URL = '/api/consolidation/export';

/** Downloads the consolidated table as XLSX (with the rates behind each figure) or PDF. */
export function downloadConsolidation(p: ConsolidationParams, format: 'xlsx' | 'pdf'): Promise<string> {
  const q = new URLSearchParams({ format, from: p.from, to: p.to, granularity: p.granularity });
  if (p.organizationId) q.set('organizationId', p.organizationId);
  return downloadFile(`${CONSOLIDATION_EXPORT_URL}?${q}`, `consolidated-financials.${format}`);
}
