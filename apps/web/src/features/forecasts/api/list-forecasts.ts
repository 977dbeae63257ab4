import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForecastList } from '@outlay/contracts/forecasts';
import { apiJson } from '@/lib/api-client';

export const FORECASTS_URL = '/api/forecasts';

export function fetchForecasts(signal?: AbortSignal) {
  return apiJson<ForecastList>('GET', FORECASTS_URL, undefined, { signal });
}

export function forecastsQueryOptions() {
  return queryOptions({ queryKey: [FORECASTS_URL], queryFn: ({ signal }) => fetchForecasts(signal) });
}

/** The budget lines in force, forecast to the end of their periods, with the model's backtest error. */
export function useForecasts() {
  return useQuery(forecastsQueryOptions());
}
