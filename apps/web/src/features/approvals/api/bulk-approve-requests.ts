import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkApproveResult } from '@outlay/contracts/approvals';
import { apiJson } from '@/lib/api-client';
import { invalidateApprovals } from './keys';

/** `POST /api/approvals/bulk-approve`: each request decided on its own; failures come back with their message. */
export function bulkApprove(input: { requestIds: string[]; reason?: string }) {
  return apiJson<BulkApproveResult>('POST', '/api/approvals/bulk-approve', input);
}

export function useBulkApprove() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkApprove, onSettled: () => invalidateApprovals(queryClient) });
}
