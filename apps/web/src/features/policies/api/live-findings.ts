import { useEffect, useMemo, useState } from 'react';
import type { PolicyEvaluateInput } from '@outlay/contracts/policies';
import { usePolicyEvaluation } from './policies';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

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
