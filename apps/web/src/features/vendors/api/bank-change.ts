import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VendorDetail } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';
import { VENDORS_URL } from './vendor';

/**
 * A vendor's pending bank account change: confirmed by someone who manages vendors other than
 * the one who asked for it (`POST …/bank-change/confirm`, may answer 403 reauth_required: the
 * caller wraps it with the step-up prompt), or discarded (`DELETE …/bank-change`).
 */
export function confirmBankChange(id: string) {
  return apiJson<VendorDetail>('POST', `${VENDORS_URL}/${id}/bank-change/confirm`);
}

export function discardBankChange(id: string) {
  return apiJson<VendorDetail>('DELETE', `${VENDORS_URL}/${id}/bank-change`);
}

export function useBankChange(wrap: (fn: typeof confirmBankChange) => typeof confirmBankChange = (fn) => fn) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: [VENDORS_URL] });
  return {
    confirm: useMutation({ mutationFn: wrap(confirmBankChange), onSuccess }),
    discard: useMutation({ mutationFn: discardBankChange, onSuccess }),
  };
}
