import { describe, expect, it } from 'vitest';
import { toRequestInput } from './receipt-review';

const base = {
  title: 'Receipt from Blue Bottle Coffee',
  categoryId: '00000000-0000-4000-8000-000000000001',
  kind: 'reimbursement' as const,
  expenseDate: '2026-03-07',
};

describe('the request a reviewed receipt becomes', () => {
  it('carries the total as the amount and the printed tax on one line item whose net and tax add up to it', () => {
    const input = toRequestInput({
      ...base,
      merchant: 'Blue Bottle Coffee',
      amount: '20.60',
      taxAmount: '1.40',
      currency: 'USD',
    });
    expect(input).toMatchObject({
      amount: '20.60',
      currency: 'USD',
      expenseDate: '2026-03-07',
      description: 'Receipt from Blue Bottle Coffee',
      kind: 'reimbursement',
    });
    expect(input.lineItems).toEqual([
      { description: 'Blue Bottle Coffee', categoryId: null, amount: '19.20', taxAmount: '1.40' },
    ]);
  });
  it('has no line item when no tax is printed, or when the tax is not less than the total', () => {
    expect(
      toRequestInput({ ...base, merchant: 'Yellow Cab', amount: '53.44', taxAmount: '', currency: 'USD' }).lineItems,
    ).toEqual([]);
    expect(
      toRequestInput({ ...base, merchant: '', amount: '5.00', taxAmount: '5.00', currency: 'USD' }).lineItems,
    ).toEqual([]);
  });
  it("keeps whole yen whole (written with the columns' two decimals, as the API writes them)", () => {
    const input = toRequestInput({ ...base, merchant: 'Lawson', amount: '1264', taxAmount: '94', currency: 'JPY' });
    expect(input.lineItems[0]).toMatchObject({ amount: '1170.00', taxAmount: '94' });
  });
});
