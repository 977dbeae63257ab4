/** People pickers over `GET /api/workflows/approver-options`, shared by approvals and workflows. */
export { ApproverPicker } from './approver-picker';
export { FormFieldApprover } from './form-field-approver';
export { approverOptionsQueryOptions, useApproverOptions, type ApproverOption } from './api';
