/** Endpoints of the workflows feature; every query key starts with one of them. */
export const WORKFLOWS_URL = '/api/workflows';
export const AUTO_APPROVAL_RULES_URL = '/api/auto-approval-rules';
export const ROUTING_REQUESTS_URL = '/api/routing/requests';
export const ROUTING_PREDICTION_URL = '/api/routing/prediction';
