import type { RerouteInput } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { REQUESTS_URL, useManagementMutation } from './keys';

/** `POST /api/requests/:id/reroute`: a new round from the current workflows. */
export function reroute({ requestId, input }: { requestId: string; input: RerouteInput }) {
  return apiJson<unknown>('POST', `${REQUESTS_URL}/${encodeURIComponent(requestId)}/reroute`, input);
}

export const useReroute = () => useManagementMutation(reroute);
