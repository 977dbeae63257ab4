/**
 * The spending request in full, shared by /requests, /requests-management and /approvals:
 *
 *   <RequestDetailView requestId={id} onChanged={() => …} extraActions={(d) => <DecideButtons … />} />
 *
 * It fetches `GET /api/requests/:id` itself (query key ['/api/requests', id]) and shows exactly
 * the buttons of the server's `actions`. After a change it invalidates ['/api/requests'],
 * ['/api/requests/mine'] and ['/api/approvals'].
 */
export { RequestDetailView, editHrefOf, type RequestDetailViewProps } from './request-detail-view';
export { RequestStatusBadge } from './request-status-badge';
export { PayRequestDialog, RespondDialog, type PayRequestDialogProps, type RespondDialogProps } from './action-dialogs';
export { AttachmentThumbnail, formatBytes } from './attachments-section';
export {
  REQUESTS_URL,
  MY_REQUESTS_URL,
  requestUrl,
  requestDetailQueryOptions,
  useRequestDetail,
  invalidateRequests,
  newIdempotencyKey,
  submitRequest,
  uploadAttachment,
  attachmentProblem,
  useObjectUrl,
  todayIso,
  formatRate,
} from './api';
