import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Employee } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { EMPLOYEES_URL } from './employee';

/**
 * An employee's pending bank account change: confirmed by a payroll manager other than the one
 * who asked for it (`POST …/bank-change/confirm`, may answer 403 reauth_required: the caller
 * wraps it with the step-up prompt), or discarded (`DELETE …/bank-change`).
 */
export function confirmBankChange(id: string) {
  return apiJson<Employee>('POST', `${EMPLOYEES_URL}/${id}/bank-change/confirm`);
}

export function discardBankChange(id: string) {
  return apiJson<Employee>('DELETE', `${EMPLOYEES_URL}/${id}/bank-change`);
}

export function useBankChange(wrap: (fn: typeof confirmBankChange) => typeof confirmBankChange = (fn) => fn) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: [EMPLOYEES_URL] });
  return {
    confirm: useMutation({ mutationFn: wrap(confirmBankChange), onSuccess }),
    discard: useMutation({ mutationFn: discardBankChange, onSuccess }),
  };
}
