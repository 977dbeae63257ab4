import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VendorDetail, VendorStatusInput } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';
import { VENDORS_URL } from './vendor';

/** Verify, block (with a reason) or unblock. */
export function changeVendorStatus({ id, input }: { id: string; input: VendorStatusInput }) {
  return apiJson<VendorDetail>('POST', `${VENDORS_URL}/${id}/status`, input);
}

export function useChangeVendorStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeVendorStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [VENDORS_URL] }),
  });
}
