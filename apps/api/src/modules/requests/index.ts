// The requests module's public face for other modules and jobs: drafts, who may see a request and
// its detail. The routes plugins (requests.routes.ts, requests.transitions.routes.ts) are
// registered by app.ts from their own files: the transition routes call approvals, which read
// requests through this file, so re-exporting them here would close an import cycle.
export { cleanFileName, readUpload } from './attachments.ts';
export { filterCondition, summaryRequestColumns } from './requests.queries.ts';
export { findVisibleRequest, visibilityCondition } from './requests.access.ts';
export { getRequestDetail } from './requests.detail.ts';
export { formOptions } from './requests.form.ts';
export { createRequest } from './requests.service.ts';
