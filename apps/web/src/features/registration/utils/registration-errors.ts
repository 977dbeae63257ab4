import { messageOf } from '@/lib/api-error';

/** docs/product.md §6.7: duplicates get their own title; everything else is a plain failure. */
export function registrationFailureToast(error: unknown): { title: string; description: string } {
  const message = messageOf(error, 'There was an error submitting your registration request.');
  if (/already have a pending|already have an approved/i.test(message)) {
    return { title: 'Request Already Exists', description: message };
  }
  return { title: 'Registration Failed', description: message };
}
