import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateVendorInput, VendorDetail } from '@outlay/contracts';
import { apiJson } from '@/lib/api-client';
import { VENDORS_URL } from './vendor';

export function updateVendor({ id, input }: { id: string; input: UpdateVendorInput }) {
  return apiJson<VendorDetail>('PATCH', `${VENDORS_URL}/${id}`, input);
}

export function useUpdateVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVendor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [VENDORS_URL] }),
  });
}
