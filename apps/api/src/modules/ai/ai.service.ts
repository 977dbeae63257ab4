import type { ParsedExpense, ParseExpenseInput } from '@outlay/contracts';
import type { Ctx } from '../../lib/context.ts';
import { formOptions } from '../requests/index.ts';
import { parseExpenseText } from './ai.parse-expense.ts';
import * as repo from './ai.repository.ts';

export { askCopilot } from './ai.copilot.ts';

/** POST /api/ai/parse-expense: the sentence read against the caller's own categories and vendors, as the new-request form offers them. */
export async function parseExpense(ctx: Ctx, input: ParseExpenseInput): Promise<ParsedExpense> {
  const form = await formOptions(ctx);
  const vendors = await repo.usableVendors(ctx.db, form.organization.id);
  return parseExpenseText(input.text, {
    // The server's date in UTC when the client does not say which day it is.
    today: input.today ?? ctx.now.toISOString().slice(0, 10),
    currency: form.organization.currency,
    categories: form.categories.filter((c) => c.name !== 'Payroll'),
    vendors,
  });
}
