import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FxRate, UpdateFxRateInput } from '@outlay/contracts/fx-rates';
import { apiJson } from '@/lib/api-client';
import { invalidateUrls } from '@/lib/query-client';
import { FX_RATES_URL } from './keys';

export function updateFxRate({ id, input }: { id: string; input: UpdateFxRateInput }) {
  return apiJson<FxRate>('PATCH', `${FX_RATES_URL}/${id}`, input);
}

export function useUpdateFxRate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateFxRate, onSuccess: () => invalidateUrls(queryClient, FX_RATES_URL) });
}
