import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DismissFindingInput } from '@outlay/contracts/findings';
import { apiJson } from '@/lib/api-client';
import { FINDINGS_URL } from './findings';

/** Needs audit.read; the reason is kept and audited. */
export function dismissFinding(input: DismissFindingInput) {
  return apiJson<{ key: string; dismissed: true }>('POST', `${FINDINGS_URL}/dismissals`, input);
}

export function useDismissFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissFinding,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [FINDINGS_URL] }),
  });
}
