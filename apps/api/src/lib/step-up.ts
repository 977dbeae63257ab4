import { MESSAGES, STEP_UP_WINDOW_SECONDS } from '@outlay/contracts';
import { AppError } from './app-error.ts';
import type { Ctx } from './context.ts';

/**
 * Sensitive actions (password resets, role changes, restores, payroll approval, revoking
 * others' sessions) need a sign-in or password confirmation within the last 10 minutes;
 * otherwise 403 `reauth_required` and the screen asks for the password (docs/product.md §2.10).
 */
export function requireRecentAuth(ctx: Ctx): void {
  const auth = ctx.auth!;
  if (ctx.now.getTime() - auth.reauthAt.getTime() > STEP_UP_WINDOW_SECONDS * 1000) {
    throw new AppError('reauth_required', { message: MESSAGES.reauthRequired });
  }
}
