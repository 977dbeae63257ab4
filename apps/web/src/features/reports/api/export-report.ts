import type { ReportDefinitionInput, ReportFormat } from '@outlay/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { filenameFromDisposition } from '@/components/data-table/download';
import { REPORTS_URL } from './saved-reports';

function save(blob: Blob, name: string) {
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = name;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
}

/**
 * `GET /api/reports/:id/export?format` for a saved report as it is stored, else
 * `POST /api/reports/export {definition, format}` for what is on screen; the file is downloaded.
 */
export async function exportReport(p: {
  format: ReportFormat;
  savedId?: string;
  definition: ReportDefinitionInput;
}): Promise<string> {
  const res = p.savedId
    ? await apiRequest('GET', `${REPORTS_URL}/${p.savedId}/export?format=${p.format}`)
    : await apiRequest('POST', `${REPORTS_URL}/export`, { definition: p.definition, format: p.format });
  const name = filenameFromDisposition(res.headers.get('Content-Disposition')) ?? `report.${p.format}`;
  save(await res.blob(), name);
  return name;
}
