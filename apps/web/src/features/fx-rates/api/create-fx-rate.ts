import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateFxRateValues, FxRate } from '@outlay/contracts/fx-rates';
import { apiJson } from '@/lib/api-client';
import { invalidateUrls } from '@/lib/query-client';
import { FX_RATES_URL } from './keys';

export function createFxRate(input: CreateFxRateValues) {
  return apiJson<FxRate>('POST', FX_RATES_URL, input);
}

export function useCreateFxRate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createFxRate, onSuccess: () => invalidateUrls(queryClient, FX_RATES_URL) });
}
