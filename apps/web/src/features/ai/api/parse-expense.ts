import { useMutation } from '@tanstack/react-query';
import type { ParsedExpense, ParseExpenseInput } from '@outlay/contracts/ai';
import { apiJson } from '@/lib/api-client';

export const PARSE_EXPENSE_URL = '/api/ai/parse-expense';

/** `POST /api/ai/parse-expense`: a sentence read into a draft (nothing is saved). */
export function parseExpense(input: ParseExpenseInput) {
  return apiJson<ParsedExpense>('POST', PARSE_EXPENSE_URL, input);
}

export function useParseExpense() {
  return useMutation({ mutationFn: parseExpense });
}
