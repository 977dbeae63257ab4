/*
 * The fx-rates feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useCreateFxRate } from './api/create-fx-rate';
export { FX_RATES_URL } from './api/keys';
export { useUpdateFxRate } from './api/update-fx-rate';
