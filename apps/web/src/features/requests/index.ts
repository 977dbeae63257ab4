/*
 * The requests feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here. The detail view is the one component: the
 * approvals screens show it in their dialogs.
 */
export { RequestDetailView } from './components/request-detail/request-detail-view';
export { useRequestDetail } from './api/get-request';
export { useRequestOptions } from './api/get-request-options';
export { runSaveAttempt, type SaveAttempt, type SaveAttemptError } from './api/save-request-attempt';
export { createRequest } from './api/create-request';
export { updateRequest } from './api/update-request';
export { uploadAttachment } from './api/upload-attachment';
export { useVendorOptions } from './api/list-vendor-options';
