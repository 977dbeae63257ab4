import { z } from 'zod';
import { updateProfileInput } from '@outlay/contracts/auth';

/** docs/product.md §6.4: names are required; email and phone have no client-side checks (the server checks them). */
export const profileFormSchema = updateProfileInput.safeExtend({ email: z.string().trim().max(254) });
export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormValues = z.output<typeof profileFormSchema>;
