import { useMutation } from '@tanstack/react-query';
import type { CalendarImportPreview, CalendarImportPreviewInput } from '@outlay/contracts/calendar';
import { apiJson } from '@/lib/api-client';

export const CALENDAR_IMPORT_PREVIEW_URL = '/api/calendar/import/preview';

/** `POST /api/calendar/import/preview`: the file's events as drafts would take them; creates nothing. */
export function previewImport(input: CalendarImportPreviewInput) {
  return apiJson<CalendarImportPreview>('POST', CALENDAR_IMPORT_PREVIEW_URL, input);
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}
