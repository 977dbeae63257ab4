/*
 * What other features use of requests. Pages are reached through the route catalogue, never from
 * here.
 */
export { RequestDetailView, type RequestDetailViewProps } from './components/request-detail/request-detail-view';
export { useRequestDetail } from './api/get-request';
