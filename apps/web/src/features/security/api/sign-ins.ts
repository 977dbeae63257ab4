/** `GET /api/security/sign-ins` (list protocol; read through the shared data table) and its export. */
export const SIGN_INS_URL = '/api/security/sign-ins';
