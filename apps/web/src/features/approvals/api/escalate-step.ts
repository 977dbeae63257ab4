import { apiJson } from '@/lib/api-client';
import { useManagementMutation } from './keys';

/** `POST /api/approvals/steps/:stepId/escalate`: adds the next level (or the fallback) now. */
export function escalate({ stepId, note }: { stepId: string; note?: string }) {
  return apiJson<unknown>('POST', `/api/approvals/steps/${encodeURIComponent(stepId)}/escalate`, note ? { note } : {});
}

export const useEscalate = () => useManagementMutation(escalate);
