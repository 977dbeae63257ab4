import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarImportInput, CalendarImportResult } from '@outlay/contracts/calendar';
import { apiJson } from '@/lib/api-client';
import { CALENDAR_UPCOMING_URL } from './keys';

export const CALENDAR_IMPORT_URL = '/api/calendar/import';

/** `POST /api/calendar/import`: a draft request of mine for each chosen event, all or none. */
export function importEvents(input: CalendarImportInput) {
  return apiJson<CalendarImportResult>('POST', CALENDAR_IMPORT_URL, input);
}

export function useImportEvents() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importEvents,
    // The new drafts show in My Requests and, with their needed-by dates, in the upcoming list.
    onSuccess: () =>
      Promise.all(
        ['/api/requests/mine', '/api/requests', CALENDAR_UPCOMING_URL].map((url) =>
          queryClient.invalidateQueries({ queryKey: [url] }),
        ),
      ),
  });
}
