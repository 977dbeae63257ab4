import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateVendorInput, VendorDetail } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';
import { VENDORS_URL } from './vendor';

export function createVendor(input: CreateVendorInput) {
  return apiJson<VendorDetail>('POST', VENDORS_URL, input);
}

export function useCreateVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVendor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [VENDORS_URL] }),
  });
}
