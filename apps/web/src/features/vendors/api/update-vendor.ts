import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateVendorInput, VendorDetail } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';
import { VENDORS_URL } from './vendor';

/** `headers` carries If-Match: the save is refused (412) when the vendor changed since it was loaded. */
export function updateVendor({
  id,
  input,
  headers,
}: {
  id: string;
  input: UpdateVendorInput;
  headers?: Record<string, string>;
}) {
  return apiJson<VendorDetail>('PATCH', `${VENDORS_URL}/${id}`, input, { headers });
}

export function useUpdateVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVendor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [VENDORS_URL] }),
  });
}
