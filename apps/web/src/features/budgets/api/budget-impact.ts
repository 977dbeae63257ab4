import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BudgetImpact, BudgetImpactQuery } from '@outlay/contracts/budgets';
import { moneyAmount } from '@outlay/contracts/primitives';
import { apiJson } from '@/lib/api-client';
import { useDebounced } from '@/lib/use-debounced';

export const BUDGET_IMPACT_URL = '/api/budgets/impact';
const REQUESTS_URL = '/api/requests';

/** `GET /api/budgets/impact`: the lines a request being written would consume if submitted today. */
export function fetchDraftBudgetImpact(query: BudgetImpactQuery, signal?: AbortSignal) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  return apiJson<BudgetImpact>('GET', `${BUDGET_IMPACT_URL}?${params.toString()}`, undefined, { signal });
}

export function draftBudgetImpactQueryOptions(query: BudgetImpactQuery) {
  return queryOptions({
    queryKey: [BUDGET_IMPACT_URL, query],
    queryFn: ({ signal }) => fetchDraftBudgetImpact(query, signal),
    staleTime: 15_000,
  });
}

export interface DraftImpactInput {
  organizationId: string;
  departmentId?: string | null;
  categoryId?: string | null;
  amount?: string | null;
  currency?: string | null;
}

/**
 * The form's budget impact as the user types: the fields are debounced (400 ms) and only a
 * complete, valid amount and currency are asked about; `pending` covers the debounce too.
 */
export function useDraftBudgetImpact(input: DraftImpactInput) {
  const amount = input.amount?.trim() ?? '';
  const valid = Boolean(input.currency) && amount !== '' && moneyAmount.safeParse(amount).success;
  const key = JSON.stringify(
    valid
      ? {
          organizationId: input.organizationId,
          departmentId: input.departmentId || undefined,
          categoryId: input.categoryId || undefined,
          amount,
          currency: input.currency,
        }
      : null,
  );
  const debouncedKey = useDebounced(key, 400);
  const query = JSON.parse(debouncedKey) as BudgetImpactQuery | null;
  const result = useQuery({
    ...draftBudgetImpactQueryOptions(query ?? ({} as BudgetImpactQuery)),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
  return { query: result, ready: valid, pending: key !== debouncedKey || result.isFetching };
}

/** `GET /api/requests/:id/budget-impact`: an existing request, without its own money in "before". */
export function requestBudgetImpactQueryOptions(requestId: string) {
  return queryOptions({
    queryKey: [REQUESTS_URL, requestId, 'budget-impact'],
    queryFn: ({ signal }) =>
      apiJson<BudgetImpact>('GET', `${REQUESTS_URL}/${requestId}/budget-impact`, undefined, { signal }),
    staleTime: 15_000,
  });
}

export function useRequestBudgetImpact(requestId: string | null) {
  return useQuery({ ...requestBudgetImpactQueryOptions(requestId ?? ''), enabled: Boolean(requestId) });
}
