import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FxQuote } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';

export const FX_QUOTE_URL = '/api/requests/fx-quote';

export interface FxQuoteParams {
  amount: string;
  currency: string;
  date?: string | null | undefined;
}

/** The amount in the organization's and the group's currency at the period's rates. */
export function fxQuoteQuery({ amount, currency, date }: FxQuoteParams) {
  const params = new URLSearchParams({ amount, currency });
  if (date) params.set('date', date);
  return queryOptions({
    queryKey: [FX_QUOTE_URL, amount, currency, date ?? null],
    queryFn: ({ signal }) => apiJson<FxQuote>('GET', `${FX_QUOTE_URL}?${params.toString()}`, undefined, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useFxQuote(params: FxQuoteParams | null) {
  return useQuery({
    ...fxQuoteQuery(params ?? { amount: '0', currency: 'USD' }),
    enabled: Boolean(params),
    placeholderData: keepPreviousData,
  });
}
