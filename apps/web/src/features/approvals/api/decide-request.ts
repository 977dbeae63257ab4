import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DecisionInput, DecisionResult } from '@outlay/contracts/approvals';
import { apiJson } from '@/lib/api-client';
import { invalidateApprovals } from './keys';

/** `POST /api/approvals/:requestId/decide`: approve (optionally rejecting line items), reject, or ask for information. */
export function decide({ requestId, input }: { requestId: string; input: DecisionInput }) {
  return apiJson<DecisionResult>('POST', `/api/approvals/${encodeURIComponent(requestId)}/decide`, input);
}

export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: decide, onSettled: () => invalidateApprovals(queryClient) });
}
