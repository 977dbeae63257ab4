// What people read about payables: refusals, the request's timeline and the requester's notice.
import { serverFormat as fmt } from '@outlay/contracts/format';

export const MESSAGES = {
  notFound: 'Payable not found',
  vendorNotFound: 'Vendor not found',
  overpayment: (amount: string, open: string, currency: string) =>
    `${fmt.money(amount, currency)} is more than the open balance of ${fmt.money(open, currency)}; record at most the open balance`,
  settled: 'This invoice is already paid in full',
  requestNotPayable:
    'The request of this invoice is not approved for payment, so no payment can be recorded against it',
};

export const REQUESTER = { paid: 'was paid' } as const;

export const ACTIVITY = {
  payment: (input: { paymentDate: string; paymentReference: string | null }) =>
    input.paymentReference
      ? `Payment ${input.paymentReference} on ${fmt.date(input.paymentDate) ?? input.paymentDate}`
      : `Payment on ${fmt.date(input.paymentDate) ?? input.paymentDate}`,
  partPayment: (
    amount: string,
    currency: string,
    open: string,
    input: { paymentDate: string; paymentReference: string | null },
  ) =>
    `${fmt.money(amount, currency)} paid${input.paymentReference ? ` (${input.paymentReference})` : ''} on ${fmt.date(input.paymentDate) ?? input.paymentDate}; ${fmt.money(open, currency)} still open`,
} as const;
