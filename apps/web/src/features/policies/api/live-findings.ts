import { useMemo } from 'react';
import type { PolicyEvaluateInput } from '@outlay/contracts/policies';
import { usePolicyEvaluation } from './policies';
import { useDebounced } from '@/lib/use-debounced';

/**
 * The draft form's findings as the user types: the form body is debounced (400 ms) and sent to
 * `POST /api/policies/evaluate`, the same engine as the submission. `blocking` is true when a
 * rule blocks the request (submission would be refused whatever is typed).
 */
export function useLiveFindings(draft: PolicyEvaluateInput) {
  const key = JSON.stringify(draft);
  const debouncedKey = useDebounced(key, 400);
  const input = useMemo(() => JSON.parse(debouncedKey) as PolicyEvaluateInput, [debouncedKey]);
  const query = usePolicyEvaluation(input);
  const findings = query.data?.findings ?? [];
  const hasJustification = Boolean(draft.justification?.trim());
  return {
    findings,
    blocking: findings.some((f) => f.action === 'block'),
    needsJustification: !hasJustification && findings.some((f) => f.action === 'justify'),
    checking: query.isFetching || key !== debouncedKey,
  };
}
