import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BudgetImportInput,
  BudgetImportResult,
  BudgetLine,
  BudgetOptions,
  CopyBudgetPeriodInput,
  CopyBudgetPeriodResult,
  CreateBudgetLineInput,
  UpdateBudgetLineInput,
} from '@outlay/contracts/budgets';
import { apiJson, apiRequest } from '@/lib/api-client';

export const BUDGET_LINES_URL = '/api/budgets/lines';
export const BUDGET_OPTIONS_URL = '/api/budgets/options';
export const BUDGET_VS_ACTUAL_URL = '/api/budgets/vs-actual';

/** Organizations, departments, categories and currencies the budget screens choose from. */
export function budgetOptionsQueryOptions() {
  return queryOptions<BudgetOptions>({ queryKey: [BUDGET_OPTIONS_URL], staleTime: 5 * 60_000 });
}
export function useBudgetOptions() {
  return useQuery(budgetOptionsQueryOptions());
}

function useInvalidateBudgets() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [BUDGET_LINES_URL] }),
      queryClient.invalidateQueries({ queryKey: [BUDGET_VS_ACTUAL_URL] }),
    ]);
}

export function useCreateBudgetLine() {
  const invalidate = useInvalidateBudgets();
  return useMutation({
    mutationFn: (input: CreateBudgetLineInput) => apiJson<BudgetLine>('POST', BUDGET_LINES_URL, input),
    onSuccess: invalidate,
  });
}

export function fetchBudgetLine(id: string) {
  return apiJson<BudgetLine>('GET', `${BUDGET_LINES_URL}/${id}`);
}

/** `headers` carries If-Match: the save is refused (412) when the line changed since it was loaded. */
export function useUpdateBudgetLine() {
  const invalidate = useInvalidateBudgets();
  return useMutation({
    mutationFn: ({
      id,
      input,
      headers,
    }: {
      id: string;
      input: UpdateBudgetLineInput;
      headers?: Record<string, string>;
    }) => apiJson<BudgetLine>('PATCH', `${BUDGET_LINES_URL}/${id}`, input, { headers }),
    onSuccess: invalidate,
  });
}

export function useDeleteBudgetLine() {
  const invalidate = useInvalidateBudgets();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${BUDGET_LINES_URL}/${id}`),
    onSuccess: invalidate,
  });
}

export function useCopyBudgetPeriod() {
  const invalidate = useInvalidateBudgets();
  return useMutation({
    mutationFn: (input: CopyBudgetPeriodInput) =>
      apiJson<CopyBudgetPeriodResult>('POST', `${BUDGET_LINES_URL}/copy`, input),
    onSuccess: invalidate,
  });
}

export function useImportBudgetLines() {
  const invalidate = useInvalidateBudgets();
  return useMutation({
    mutationFn: (input: BudgetImportInput) => apiJson<BudgetImportResult>('POST', `${BUDGET_LINES_URL}/import`, input),
    onSuccess: (result) => (result.dryRun ? undefined : invalidate()),
  });
}
