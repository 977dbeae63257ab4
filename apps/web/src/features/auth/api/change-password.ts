import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

/** The three payloads of docs/product.md §6.6 (standalone, dialog, profile) share one endpoint. */
export interface ChangePasswordPayload {
  newPassword: string;
  confirmPassword?: string;
  currentPassword?: string;
  userId?: string;
  passwordChangeToken?: string;
}

export function changePassword(payload: ChangePasswordPayload) {
  return apiJson<{ message: string }>('POST', '/api/auth/change-password', payload, {
    // A first-time change has no session; its proof is the single-use token in the body.
    auth: payload.passwordChangeToken ? false : true,
  });
}

export function useChangePasswordMutation() {
  return useMutation({ mutationFn: changePassword });
}
