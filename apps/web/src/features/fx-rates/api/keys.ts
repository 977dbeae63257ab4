/** The FX rates endpoint; every query key of this feature starts with it. */
export const FX_RATES_URL = '/api/fx-rates';
